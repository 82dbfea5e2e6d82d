import type { Principal, SessionInfo, TokenInfo } from '../kernel/request-context.js';

/** A verified credential: whose it is and which scopes it carries. */
export interface AuthenticatedIdentity {
  principal: Principal;
  method: 'session' | 'token';
  token: TokenInfo | null;
  session: SessionInfo | null;
  sessionDigest: string | null;
}

/** A credential verified once, named without its secret: a token's id, a session's digest. */
export type HeldCredential =
  { method: 'token'; tokenId: string } | { method: 'session'; sessionDigest: string };

/**
 * Turns a presented credential into an identity or throws the spec's failure code
 * (TOKEN_INVALID, TOKEN_REVOKED, TOKEN_EXPIRED, TOKEN_INVALIDATED, SESSION_EXPIRED).
 */
export interface CredentialVerifier {
  verifyToken(token: string): Promise<AuthenticatedIdentity>;
  verifySession(sessionValue: string): Promise<AuthenticatedIdentity>;
  /** The same checks again, for a response that outlives its request; not counted as a use. */
  recheck(held: HeldCredential): Promise<AuthenticatedIdentity>;
}

export const CREDENTIAL_VERIFIER = Symbol('CREDENTIAL_VERIFIER');
