import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import type { AuthenticatedIdentity, CredentialVerifier } from './authenticated-identity.js';

/** The verifier of a service that has issued no credentials yet: nothing presented is known. */
@Injectable()
export class NoCredentialsVerifier implements CredentialVerifier {
  verifyToken(): Promise<AuthenticatedIdentity> {
    return Promise.reject(new AppError('TOKEN_INVALID', 'The token is not known'));
  }

  verifySession(): Promise<AuthenticatedIdentity> {
    return Promise.reject(new AppError('SESSION_EXPIRED', 'The session is unknown or expired'));
  }
}
