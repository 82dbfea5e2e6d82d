import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { AppError } from '../common/app-error.js';
import type { AuthenticatedIdentity } from './authenticated-identity.js';
import { BEARER_REALM, TOKEN_PREFIX } from './credentials.js';

/** RFC 6750 2.1: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 256;

type Done = (error: unknown, identity?: AuthenticatedIdentity | false) => void;

const notOurs = () => new AppError('TOKEN_INVALID', 'The bearer token is not a Slipway API token');

/**
 * Bearer credentials through passport-http-bearer, for every surface (procedures, REST routes,
 * streams). The strategy reads `Authorization: Bearer <b64token>` with exactly one space after
 * the scheme (case-insensitive) and nothing after the token; anything else is TOKEN_INVALID,
 * never ignored. The verifier's own codes (TOKEN_REVOKED, TOKEN_EXPIRED, ...) pass through.
 */
export class BearerCredentials {
  private readonly authenticator = new passport.Passport();

  constructor(verify: (token: string) => Promise<AuthenticatedIdentity>) {
    this.authenticator.use(
      new BearerStrategy({ realm: BEARER_REALM }, (token: string, done: Done) => {
        if (
          token.length > MAX_TOKEN_LENGTH ||
          !B64TOKEN.test(token) ||
          !token.startsWith(TOKEN_PREFIX)
        ) {
          done(notOurs());
          return;
        }
        verify(token).then(
          (identity) => done(null, identity),
          (error: unknown) => done(error),
        );
      }),
    );
  }

  /** The identity behind an `Authorization` header value, or the refusal to answer with. */
  authenticate(authorization: string): Promise<AuthenticatedIdentity> {
    // Only the header is shown to the strategy: a token in a query string or a form body would
    // end up in logs and browser histories, so those places are never read.
    const request = { headers: { authorization }, query: {}, body: undefined };
    return new Promise((resolve, reject) => {
      const middleware = this.authenticator.authenticate(
        'bearer',
        { session: false },
        (error: unknown, identity: AuthenticatedIdentity | false | undefined) => {
          if (error) reject(error);
          else if (identity) resolve(identity);
          else reject(notOurs());
        },
      ) as (req: unknown, res: unknown, next: (error?: unknown) => void) => void;
      middleware(request, {}, (error?: unknown) => reject(error ?? notOurs()));
    });
  }
}
