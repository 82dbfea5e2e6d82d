import { IsIn } from 'class-validator';
import { MFA_POLICIES, type MfaPolicy } from '../events/security.events.js';

export class UpdateAccountSecurityPolicyInput {
  @IsIn(MFA_POLICIES)
  policy!: MfaPolicy;
}
