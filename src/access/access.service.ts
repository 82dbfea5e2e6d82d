import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../common/app-error.js';
import type { ProcedureOptions } from '../rpc/procedure.js';
import { decideAccess } from './access-decision.js';
import {
  CREDENTIAL_VERIFIER,
  type AuthenticatedIdentity,
  type CredentialVerifier,
} from './authenticated-identity.js';
import { presentedCredential } from './credentials.js';
import { anonymousContext, type RequestContext } from './request-context.js';

/** The guard every surface calls: who is calling, and may they call this. Fail-closed. */
@Injectable()
export class AccessService {
  constructor(@Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier) {}

  async authorize(
    target: Pick<ProcedureOptions, 'name' | 'auth' | 'roles' | 'scopes'>,
    req: Request,
  ): Promise<RequestContext> {
    const anonymous = anonymousContext(req.requestId, req.correlationId, req.ip ?? null);
    if (target.auth === 'public') return anonymous;
    const identity = await this.authenticate(req);
    const scopes = effectiveScopes(identity);
    decideAccess(target, identity.principal, scopes);
    return {
      ...anonymous,
      principal: identity.principal,
      authMethod: identity.method,
      tokenId: identity.tokenId,
      scopes,
    };
  }

  private authenticate(req: Request): Promise<AuthenticatedIdentity> {
    const credential = presentedCredential(req);
    switch (credential.kind) {
      case 'token':
        return this.verifier.verifyToken(credential.value);
      case 'session':
        return this.verifier.verifySession(credential.value);
      case 'none':
        throw new AppError('AUTH_REQUIRED', 'Sign in or present a bearer token');
    }
  }
}

/** Until roles carry capabilities, a token's scopes are its effective access. */
function effectiveScopes(identity: AuthenticatedIdentity): string[] {
  return identity.tokenScopes ?? [];
}
