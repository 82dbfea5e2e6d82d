import type { Principal } from '../kernel/request-context.js';
import { OPERATORS } from '../kernel/roles.js';
import type { MfaPolicy } from '../events/security.events.js';

/**
 * Spec 2.5: `privileged` holds owners, admins and operators to MFA; `all` every human user;
 * `optional` nobody. Agents never (their tokens are not affected).
 */
export function mfaRequired(policy: MfaPolicy, principal: Principal): boolean {
  if (principal.kind !== 'user') return false;
  if (policy === 'all') return true;
  return policy === 'privileged' && OPERATORS.some((role) => role === principal.role);
}
