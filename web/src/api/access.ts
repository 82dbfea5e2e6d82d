import { useQueryClient } from '@tanstack/react-query';
import type { AnswerOf } from './answers';
import { PROCEDURES, type ProcedureName } from './contract';

type Viewer = AnswerOf<'viewer'>;

/**
 * Whether the caller may call a procedure: its role among the declared roles and every declared
 * scope among the caller's effective scopes (the guard's own rule, from the contract). The
 * dashboard shows only the controls that pass; the API refuses the rest anyway.
 */
export function allows(viewer: Viewer | undefined, name: ProcedureName): boolean {
  if (!viewer) return false;
  const rule = PROCEDURES[name];
  const roles: readonly string[] = rule.roles;
  const scopes: readonly string[] = rule.scopes;
  const role = viewer.principal.kind === 'agent' ? 'agent' : viewer.principal.role;
  if (rule.auth === 'authenticated' && !roles.includes(role)) return false;
  const granted = new Set<string>(viewer.scopes);
  return scopes.every((s) => granted.has(s));
}

/** `allows` for the signed-in viewer (already loaded by the signed-in frame). */
export function useCan(): (name: ProcedureName) => boolean {
  const viewer = useQueryClient().getQueryData<Viewer>(['viewer']);
  return (name) => allows(viewer, name);
}
