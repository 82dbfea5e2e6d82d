/** Roles a principal can hold. `agent` is the role of every agent principal. */
export const ROLES = ['owner', 'admin', 'operator', 'viewer', 'agent'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
