import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { MfaDoc } from '../../projections/mfa.projection.js';
import type { MfaPolicy } from '../events/security.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureQuery } from '../kernel/procedure-message.js';
import { EVERYONE } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { mfaRequired } from './mfa-requirement.js';
import { SecurityPolicyReader } from './security-policy.reader.js';

export interface AccountSecurity {
  policy: MfaPolicy;
  setAt: string | null;
  setBy: string | null;
  /** Humans sign in through an identity provider only (owners keep password + TOTP). */
  ssoRequired: boolean;
  caller: {
    principalId: string;
    enrolled: boolean;
    enrolledAt: string | null;
    recoveryCodesRemaining: number;
    sessionMfaVerified: boolean;
    required: boolean;
    satisfied: boolean;
  };
}

export class AccountSecurityStatus extends ProcedureQuery<undefined, AccountSecurity> {}

@Procedure.read(AccountSecurityStatus, {
  name: 'accountSecurityStatus',
  roles: EVERYONE,
  scopes: [],
  mfaExempt: true,
  description:
    'Team MFA policy (value, when, by whom), whether SSO is required, and whether the caller is enrolled and satisfies the policy.',
  ownOnly: true,
})
export class AccountSecurityStatusHandler implements IQueryHandler<AccountSecurityStatus> {
  constructor(
    private readonly policies: SecurityPolicyReader,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async execute({ ctx }: AccountSecurityStatus): Promise<AccountSecurity> {
    const current = await this.policies.current();
    const principal = ctx.principal!;
    const mfa = await this.reads.collection<MfaDoc>('mfa').get(principal.id);
    const required = mfaRequired(current.policy, principal) && ctx.authMethod === 'session';
    const sessionMfaVerified = ctx.session?.mfaVerified ?? false;
    return {
      policy: current.policy,
      setAt: current.setAt,
      setBy: current.setBy,
      ssoRequired: current.ssoRequired,
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
}
