import { IsIn } from 'class-validator';
import { MFA_POLICIES, TEAM_SECURITY_STREAM, type MfaPolicy } from '../events/security.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { decides } from '../storage/deciding-handler.js';
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
export class UpdateAccountSecurityPolicyHandler extends decides(securityPolicyDecider).on(
  UpdateAccountSecurityPolicy,
  ({ input }) => ({
    stream: TEAM_SECURITY_STREAM,
    command: input,
    answer: (decision) => ({ policy: decision.state.policy, changed: decision.events.length > 0 }),
  }),
) {}
