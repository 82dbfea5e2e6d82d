import { AppError } from '../../src/common/app-error.js';
import type {
  AuthenticatedIdentity,
  CredentialVerifier,
} from '../../src/access/authenticated-identity.js';

/** Test stand-in for the identity context's verifier: two fixed tokens, no sessions. */
export const OWNER_TOKEN = 'slw_testownertoken0000000000000000000000000';
export const VIEWER_TOKEN = 'slw_testviewertoken000000000000000000000000';

export class StaticTokenVerifier implements CredentialVerifier {
  verifyToken(token: string): Promise<AuthenticatedIdentity> {
    if (token === OWNER_TOKEN) {
      return Promise.resolve({
        principal: { id: 'user-owner', kind: 'user', role: 'owner', name: 'Owner' },
        method: 'token',
        tokenId: 'tok-owner',
        tokenScopes: ['notes:read', 'notes:write'],
      });
    }
    if (token === VIEWER_TOKEN) {
      return Promise.resolve({
        principal: { id: 'user-viewer', kind: 'user', role: 'viewer', name: 'Viewer' },
        method: 'token',
        tokenId: 'tok-viewer',
        tokenScopes: ['notes:read'],
      });
    }
    return Promise.reject(new AppError('TOKEN_INVALID', 'The token is not known'));
  }

  verifySession(): Promise<AuthenticatedIdentity> {
    return Promise.reject(new AppError('SESSION_EXPIRED', 'The session is unknown or expired'));
  }
}
