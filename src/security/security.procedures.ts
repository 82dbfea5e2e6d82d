import { Inject, Injectable } from '@nestjs/common';
import { IsIn } from 'class-validator';
import type { MfaDoc } from '../../projections/mfa.projection.js';
import type { RequestContext } from '../kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { mfaRequired } from './mfa-requirement.js';
import { securityPolicyDecider } from './security-policy.decider.js';
import { SecurityPolicyReader } from './security-policy.reader.js';
import { MFA_POLICIES, TEAM_SECURITY_STREAM, type MfaPolicy } from '../events/security.events.js';
import { EVERYONE, ADMINS } from '../kernel/roles.js';

/** `updateAccountSecurityPolicy`, whose procedure runs the policy decider itself (no handler). */
export class UpdateAccountSecurityPolicyInput {
  @IsIn(MFA_POLICIES)
  policy!: MfaPolicy;
}

@Injectable()
export class SecurityProcedures {
  constructor(
    private readonly policies: SecurityPolicyReader,
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  @Procedure.read({
    name: 'accountSecurityStatus',
    roles: EVERYONE,
    scopes: [],
    mfaExempt: true,
    description:
      'Team MFA policy (value, when, by whom) and whether the caller is enrolled and satisfies it.',
  })
  async accountSecurityStatus(_input: undefined, ctx: RequestContext) {
    const current = await this.policies.current();
    const principal = ctx.principal!;
    const mfa = await this.reads.collection<MfaDoc>('mfa').get(principal.id);
    const required = mfaRequired(current.policy, principal) && ctx.authMethod === 'session';
    const sessionMfaVerified = ctx.session?.mfaVerified ?? false;
    return {
      policy: current.policy,
      setAt: current.setAt,
      setBy: current.setBy,
      caller: {
        principalId: principal.id,
        enrolled: mfa?.status === 'enrolled',
        enrolledAt: mfa?.enrolledAt ?? null,
        recoveryCodesRemaining: mfa?.recoveryCodesRemaining ?? 0,
        sessionMfaVerified,
        required,
        satisfied: !required || sessionMfaVerified,
      },
    };
  }

  @Procedure.command({
    name: 'updateAccountSecurityPolicy',
    roles: ADMINS,
    scopes: ['security:manage'],
    input: UpdateAccountSecurityPolicyInput,
    description:
      'Sets the team MFA policy: optional, privileged (owners, admins, operators) or all.',
  })
  async updateAccountSecurityPolicy(input: UpdateAccountSecurityPolicyInput, ctx: RequestContext) {
    const decision = await this.runner.run(TEAM_SECURITY_STREAM, securityPolicyDecider, input, ctx);
    return { policy: decision.state.policy, changed: decision.events.length > 0 };
  }
}
