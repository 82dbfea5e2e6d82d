import type { Principal } from './request-context.js';

/** A verified credential: whose it is and which scopes it carries. */
export interface AuthenticatedIdentity {
  principal: Principal;
  method: 'session' | 'token';
  tokenId: string | null;
  /** Scopes of the token, or null for a session (which has its role's capabilities). */
  tokenScopes: string[] | null;
}

/**
 * Turns a presented credential into an identity or throws the spec's failure code
 * (TOKEN_INVALID, TOKEN_REVOKED, TOKEN_EXPIRED, TOKEN_INVALIDATED, SESSION_EXPIRED).
 */
export interface CredentialVerifier {
  verifyToken(token: string): Promise<AuthenticatedIdentity>;
  verifySession(sessionId: string): Promise<AuthenticatedIdentity>;
}

export const CREDENTIAL_VERIFIER = Symbol('CREDENTIAL_VERIFIER');
