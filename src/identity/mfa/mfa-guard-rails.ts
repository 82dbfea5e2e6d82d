import { Inject, Injectable } from '@nestjs/common';
import type { UserCredentialDoc } from '../../../projections/user-credentials.projection.js';
import { AppError, badRequest } from '../../common/app-error.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { AUTH_LIMITS, Throttle } from '../login/throttle.js';
import { PasswordHasher } from '../password-hasher.js';

/** Checks shared by the MFA self-service commands. */
@Injectable()
export class MfaGuardRails {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly hasher: PasswordHasher,
    private readonly throttle: Throttle,
  ) {}

  /** MFA is managed from a signed-in browser or CLI session, never with an API token. */
  sessionUser(ctx: RequestContext): string {
    if (ctx.authMethod !== 'session' || !ctx.principal || ctx.principal.kind !== 'user') {
      throw new AppError(
        'FORBIDDEN',
        'Two-factor authentication is managed from a signed-in session',
        {
          requiredScopes: [],
          grantedScopes: ctx.scopes,
        },
      );
    }
    return ctx.principal.id;
  }

  /** Wrong passwords are counted per account: a session is no password oracle. */
  async confirmPassword(userId: string, password: string): Promise<void> {
    const key = `mfa-password-failures:${userId}`;
    this.throttle.check(key, AUTH_LIMITS.passwordConfirmFailuresPerAccount);
    const credential = await this.reads
      .collection<UserCredentialDoc>('user_credentials')
      .get(userId);
    if (!(await this.hasher.verify(credential?.passwordHash ?? null, password))) {
      this.throttle.hit(key, AUTH_LIMITS.passwordConfirmFailuresPerAccount);
      throw badRequest('The password is not correct', [
        { path: 'password', message: 'does not match' },
      ]);
    }
    this.throttle.reset(key);
  }
}
