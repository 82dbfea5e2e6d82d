import type { Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Lane } from './lanes.js';
import type { Role } from './roles.js';
import type { Scope } from './scopes.js';

export type ProcedureAuth = 'public' | 'authenticated';

/**
 * The single declaration of a procedure. It drives routing (name, method from lane), the
 * guard (auth, roles, scopes), input validation (input class) and the published contract.
 */
export interface ProcedureOptions {
  name: string;
  lane: Lane;
  /**
   * `public` needs no credentials (only `health` is public); a valid credential presented to it
   * still identifies the caller, so it may show them more.
   */
  auth: ProcedureAuth;
  /** Roles allowed to call; empty only for public procedures. */
  roles: readonly Role[];
  /** Scopes a caller's effective access must include (all of them). */
  scopes: readonly Scope[];
  /** class-validator class for the input; absent when the procedure takes none. */
  input?: Type<object>;
  description: string;
  /**
   * Reachable by a session that the team MFA policy blocks, so that its user can comply
   * (enrol, read the policy, see who they are).
   */
  mfaExempt?: boolean;
  /**
   * Only a signed-in session (browser or CLI) may call it, never an API token: what manages a
   * person's own second factor needs that person, not a credential they handed out.
   */
  sessionOnly?: boolean;
}

/** What a procedure that needs credentials declares; its lane is named by the decorator. */
export type AuthenticatedProcedureOptions = Omit<ProcedureOptions, 'lane' | 'auth'>;

const declareProcedure = DiscoveryService.createDecorator<ProcedureOptions>();

const inLane = (lane: Lane) => (options: AuthenticatedProcedureOptions) =>
  declareProcedure({ ...options, lane, auth: 'authenticated' });

/**
 * Marks a provider method as a procedure: `(input, ctx: RequestContext) => result`. Every
 * procedure but `health` needs credentials and is declared in its lane:
 * `@Procedure.read({...})`, `@Procedure.planning({...})` or `@Procedure.command({...})`.
 */
export const Procedure = Object.assign(declareProcedure, {
  read: inLane('read'),
  planning: inLane('planning'),
  command: inLane('command'),
});

export type HttpMethod = 'GET' | 'POST';

/** Queries (read, planning) are GET; mutations (command) are POST. */
export function methodForLane(lane: Lane): HttpMethod {
  return lane === 'command' ? 'POST' : 'GET';
}
