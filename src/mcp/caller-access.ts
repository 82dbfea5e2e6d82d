import type { ProcedureOptions } from '../kernel/procedure.js';
import type { RequestContext } from '../kernel/request-context.js';

/**
 * Whether the caller's effective access (role ∩ token scopes) admits a procedure: the guard's
 * rule, asked without throwing, to decide what a caller is shown. Calls still go through the
 * guard itself.
 */
export function admits(
  procedure: Pick<
    ProcedureOptions,
    'auth' | 'roles' | 'scopes' | 'sessionOnly' | 'project' | 'projectList' | 'ownOnly'
  >,
  caller: RequestContext,
): boolean {
  if (procedure.auth === 'public') return true;
  if (procedure.sessionOnly && caller.authMethod !== 'session') return false;
  // A token limited to projects does not reach the team as a whole (assertReachesTeam).
  const onTeam = !procedure.project && !procedure.projectList && !procedure.ownOnly;
  if (onTeam && caller.token?.projects) return false;
  if (!caller.principal || !procedure.roles.includes(caller.principal.role)) return false;
  return procedure.scopes.every((scope) => caller.scopes.includes(scope));
}
