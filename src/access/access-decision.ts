import { AppError } from '../common/app-error.js';
import type { ProcedureOptions } from '../kernel/procedure.js';
import type { Principal } from '../kernel/request-context.js';

/**
 * Pure authorization: the role must be allowed, and the effective scopes must include every
 * scope the procedure requires. Denials list what was required and what was granted.
 */
export function decideAccess(
  procedure: Pick<ProcedureOptions, 'name' | 'roles' | 'scopes'>,
  principal: Principal,
  effectiveScopes: string[],
): void {
  const granted = [...effectiveScopes].sort();
  const required = [...procedure.scopes].sort();
  if (!procedure.roles.includes(principal.role)) {
    throw new AppError('FORBIDDEN', `Role ${principal.role} may not call ${procedure.name}`, {
      requiredScopes: required,
      grantedScopes: granted,
      requiredRoles: procedure.roles,
      role: principal.role,
    });
  }
  decideScopes(procedure, granted);
}

/**
 * The effective scopes must include every scope required: the procedure's, or more that a
 * call needs for what its input asks (a command of its own choosing, say).
 */
export function decideScopes(
  procedure: Pick<ProcedureOptions, 'name' | 'scopes'>,
  effectiveScopes: string[],
): void {
  const required = [...procedure.scopes].sort();
  const granted = [...effectiveScopes].sort();
  const missing = required.filter((scope) => !granted.includes(scope));
  if (missing.length > 0) {
    throw new AppError('FORBIDDEN', `Missing scope ${missing.join(', ')} for ${procedure.name}`, {
      requiredScopes: required,
      grantedScopes: granted,
      missingScopes: missing,
    });
  }
}
