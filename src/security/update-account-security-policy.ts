import type { ICommandHandler } from '@nestjs/cqrs';
import { IsIn } from 'class-validator';
import { MFA_POLICIES, TEAM_SECURITY_STREAM, type MfaPolicy } from '../events/security.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { securityPolicyDecider } from './security-policy.decider.js';

export class UpdateAccountSecurityPolicyInput {
  @IsIn(MFA_POLICIES)
  policy!: MfaPolicy;
}

export class UpdateAccountSecurityPolicy extends ProcedureCommand<
  UpdateAccountSecurityPolicyInput,
  { policy: MfaPolicy; changed: boolean }
> {}

@Procedure.command(UpdateAccountSecurityPolicy, {
  name: 'updateAccountSecurityPolicy',
  roles: ADMINS,
  scopes: ['security:manage'],
  input: UpdateAccountSecurityPolicyInput,
  description: 'Sets the team MFA policy: optional, privileged (owners, admins, operators) or all.',
})
export class UpdateAccountSecurityPolicyHandler implements ICommandHandler<UpdateAccountSecurityPolicy> {
  constructor(private readonly runner: DeciderRunner) {}

  async execute({
    input,
    ctx,
  }: UpdateAccountSecurityPolicy): Promise<{ policy: MfaPolicy; changed: boolean }> {
    const decision = await this.runner.run(TEAM_SECURITY_STREAM, securityPolicyDecider, input, ctx);
    return { policy: decision.state.policy, changed: decision.events.length > 0 };
  }
}
