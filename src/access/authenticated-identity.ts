import type { Principal, SessionInfo, TokenInfo } from '../kernel/request-context.js';

/** A verified credential: whose it is and which scopes it carries. */
export interface AuthenticatedIdentity {
  principal: Principal;
  method: 'session' | 'token';
  token: TokenInfo | null;
  session: SessionInfo | null;
  sessionDigest: string | null;
}

/**
 * Turns a presented credential into an identity or throws the spec's failure code
 * (TOKEN_INVALID, TOKEN_REVOKED, TOKEN_EXPIRED, TOKEN_INVALIDATED, SESSION_EXPIRED).
 */
export interface CredentialVerifier {
  verifyToken(token: string): Promise<AuthenticatedIdentity>;
  verifySession(sessionValue: string): Promise<AuthenticatedIdentity>;
}

export const CREDENTIAL_VERIFIER = Symbol('CREDENTIAL_VERIFIER');
