/** Roles a principal can hold. `agent` is the role of every agent principal. */
export const ROLES = ['owner', 'admin', 'operator', 'viewer', 'agent'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * The role groups procedures and routes are declared with, named once. Agents are held to
 * their token's scopes on top of their role.
 */
export const EVERYONE: readonly Role[] = ROLES;
/** The human roles: what a user can be granted. */
export const HUMANS = ['owner', 'admin', 'operator', 'viewer'] as const satisfies readonly Role[];
export const ADMINS = ['owner', 'admin'] as const satisfies readonly Role[];
/** Humans from operator up: who decides approvals, and whom the 'privileged' MFA policy covers. */
export const OPERATORS = ['owner', 'admin', 'operator'] as const satisfies readonly Role[];
export const OWNERS = ['owner'] as const satisfies readonly Role[];
/** Who plans and runs deployments and backups: operators and up, and agents. */
export const DEPLOYERS = ['owner', 'admin', 'operator', 'agent'] as const satisfies readonly Role[];
