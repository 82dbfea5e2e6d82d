import type { AuthMethod, CallChannel, EventMetadata } from '../eventstore/event-metadata.js';
import type { Role } from './roles.js';

export interface Principal {
  id: string;
  kind: 'user' | 'agent';
  role: Role;
  name: string;
  email?: string | null;
  /** Agent preset (its capability ceiling); null for users. */
  preset?: string | null;
}

/** Token metadata a caller may see about its own credential: never the value. */
export interface TokenInfo {
  id: string;
  name: string;
  scopes: string[];
  lane: string;
  expiresAt: string | null;
  /** The projects the token is limited to; null: every project its principal reaches. */
  projects: string[] | null;
  createdAt: string;
}

export interface SessionInfo {
  startedAt: string;
  expiresAt: string;
  /** The login that started this session passed the second factor. */
  mfaVerified: boolean;
  /** `password` (and TOTP), or `sso` through `providerId`, whose `amr` it carries. */
  method: 'password' | 'sso';
  providerId: string | null;
  amr: string[];
}

/** Everything a handler knows about the request that reached it. */
export interface RequestContext {
  requestId: string;
  correlationId: string;
  clientAddress: string | null;
  principal: Principal | null;
  authMethod: AuthMethod;
  tokenId: string | null;
  token: TokenInfo | null;
  session: SessionInfo | null;
  /** Digest of the session cookie, when session-backed (to end it on logout). */
  sessionDigest: string | null;
  /**
   * For a procedure that lists things in projects: the projects the caller reads in; absent or
   * null: every project.
   */
  readableProjects?: string[] | null;
  /** Effective scopes: role capabilities intersected with token scopes. */
  scopes: string[];
  /** The `Idempotency-Key` header, when the caller sent one. */
  idempotencyKey: string | null;
  /** The channel the call came through; absent: `http`. Recorded on the events it causes. */
  channel?: CallChannel;
}

export function anonymousContext(
  requestId: string,
  correlationId: string,
  clientAddress: string | null,
): RequestContext {
  return {
    requestId,
    correlationId,
    clientAddress,
    principal: null,
    authMethod: 'none',
    tokenId: null,
    token: null,
    session: null,
    sessionDigest: null,
    scopes: [],
    idempotencyKey: null,
  };
}

/** The context of work the system does on its own (a scan, a seal, a deployment run). */
export function systemContext(requestId: string, correlationId = requestId): RequestContext {
  return { ...anonymousContext(requestId, correlationId, null), authMethod: 'system' };
}

/** The same request, acting as `principal` (e.g. right after sign-up). */
export function actingAs(ctx: RequestContext, principal: Principal): RequestContext {
  return { ...ctx, principal };
}

/** The audit metadata events written on behalf of this request carry. */
export function metadataFor(ctx: RequestContext, causationId?: string): EventMetadata {
  return {
    actor: ctx.principal
      ? { principalId: ctx.principal.id, kind: ctx.principal.kind, role: ctx.principal.role }
      : { principalId: null, kind: 'anonymous', role: null },
    authMethod: ctx.authMethod,
    tokenId: ctx.tokenId,
    requestId: ctx.requestId,
    correlationId: ctx.correlationId,
    causationId: causationId ?? ctx.requestId,
    clientAddress: ctx.clientAddress,
    ...(ctx.channel && ctx.channel !== 'http' ? { channel: ctx.channel } : {}),
  };
}

/**
 * The ids every request is given on arrival (src/http/request-id.ts), declared here beside the
 * context they go into, so that any program that reads them (the dashboard's type check of the
 * server's declarations included) knows them.
 */
declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    correlationId: string;
  }
}
