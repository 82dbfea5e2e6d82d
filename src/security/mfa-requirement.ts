import type { Principal } from '../kernel/request-context.js';
import type { MfaPolicy } from '../events/security.events.js';

const PRIVILEGED = ['owner', 'admin', 'operator'];

/**
 * Spec 2.5: `privileged` holds owners, admins and operators to MFA; `all` every human user;
 * `optional` nobody. Agents never (their tokens are not affected).
 */
export function mfaRequired(policy: MfaPolicy, principal: Principal): boolean {
  if (principal.kind !== 'user') return false;
  if (policy === 'all') return true;
  return policy === 'privileged' && PRIVILEGED.includes(principal.role);
}
