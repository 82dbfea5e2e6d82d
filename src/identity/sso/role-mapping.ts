import type { MappedRole, RoleMapping } from '../../events/sso.events.js';

const RANK: Record<MappedRole, number> = { viewer: 0, operator: 1, admin: 2 };

/** The claim's values: a string, or the strings of an array; anything else is no value. */
function claimValues(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * The role the mapping gives a person with these claims: the highest role among the rules whose
 * value the claim holds, else the default (null: the mapping gives this person no role).
 */
export function mappedRole(
  mapping: RoleMapping,
  claims: Record<string, unknown>,
): MappedRole | null {
  const values = mapping.claim ? new Set(claimValues(claims, mapping.claim)) : new Set<string>();
  let best: MappedRole | null = null;
  for (const rule of mapping.rules) {
    if (values.has(rule.value) && (best === null || RANK[rule.role] > RANK[best])) {
      best = rule.role;
    }
  }
  return best ?? mapping.defaultRole;
}

/** A mapping decides roles only when it reads a claim; without one, roles are set by people. */
export const mappingDecidesRoles = (mapping: RoleMapping) => mapping.claim !== null;
