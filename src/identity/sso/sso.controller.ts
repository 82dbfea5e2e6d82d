import {
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { IsString, Matches, MaxLength } from 'class-validator';
import type { IdentityProviderDoc } from '../../../projections/identity-providers.projection.js';
import { AccessService } from '../../access/access.service.js';
import { AppError } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { jsonBody } from '../../kernel/json-body.js';
import { validateInput } from '../../kernel/input-validation.js';
import { RouteAccess } from '../../kernel/route-access.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { addressKey } from '../login/address-key.js';
import { AUTH_LIMITS, Throttle } from '../login/throttle.js';
import { setSessionCookie } from '../session-cookie.js';
import { openHandoff, sealHandoff } from './cli-handoff.js';
import { SsoProtocol } from './sso-protocol.js';
import { SsoRefusal } from './sso-refusal.js';
import { SsoRefusals } from './sso-refusals.js';
import { SsoSignInHandler } from './sso-sign-in.handler.js';
import {
  dropTransaction,
  keepTransaction,
  localPath,
  presentedTransaction,
  type CliHandoff,
} from './sso-transaction.js';

const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** A PKCE S256 challenge: 43 base64url characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export class CliSessionInput {
  @IsString()
  @MaxLength(4096)
  handoff!: string;

  /** The PKCE verifier the CLI kept (RFC 7636: 43-128 unreserved characters). */
  @Matches(/^[A-Za-z0-9._~-]{43,128}$/, { message: 'verifier is a PKCE code verifier' })
  verifier!: string;
}

function cliHandoffOf(port: unknown, challenge: unknown): CliHandoff | null {
  if (port === undefined && challenge === undefined) return null;
  const n = typeof port === 'string' && /^\d{1,5}$/.test(port) ? Number(port) : NaN;
  if (!(n >= 1024 && n <= 65535) || typeof challenge !== 'string' || !CHALLENGE.test(challenge)) {
    throw new AppError(
      'BAD_REQUEST',
      'cliPort is 1024-65535 and cliChallenge a PKCE S256 challenge',
      {
        issues: [{ path: 'cliPort', message: 'invalid' }],
      },
    );
  }
  return { port: n, challenge };
}

/**
 * Single sign-on through OpenID Connect providers: the providers on offer, the start (off to the
 * provider), the callback (back with a code) and the CLI's hand-off. Each refusal is recorded
 * and told: the dashboard's sign-in page, or the CLI's listener, gets the reason.
 */
@Controller('api/auth/sso')
@RouteAccess({ auth: 'public' })
export class SsoController {
  constructor(
    private readonly protocol: SsoProtocol,
    private readonly signIn: SsoSignInHandler,
    private readonly refusals: SsoRefusals,
    private readonly access: AccessService,
    private readonly throttle: Throttle,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** For the sign-in page: the enabled providers, by id and name only. */
  @Get('providers')
  @Header('Cache-Control', 'no-store')
  async providers() {
    const { items } = await this.reads
      .collection<IdentityProviderDoc>('identity_providers')
      .find({ enabled: true }, { sort: { id: 1 }, limit: 200 });
    return { providers: items.map((p) => ({ providerId: p.id, displayName: p.displayName })) };
  }

  @Get(':providerId/start')
  @Header('Cache-Control', 'no-store')
  async start(
    @Param('providerId') providerId: string,
    @Query('returnTo') returnTo: unknown,
    @Query('cliPort') cliPort: unknown,
    @Query('cliChallenge') cliChallenge: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    this.throttle.take(`sso:ip:${addressKey(req.ip)}`, AUTH_LIMITS.ssoPerAddress);
    if (!PROVIDER_ID.test(providerId)) throw new AppError('NOT_FOUND', 'No such identity provider');
    const cli = cliHandoffOf(cliPort, cliChallenge);
    try {
      const { url, transaction } = await this.protocol.start(providerId, localPath(returnTo), cli);
      keepTransaction(res, this.box, transaction);
      res.redirect(302, url.href);
    } catch (error) {
      await this.refused(error, req, res, cli);
    }
  }

  @Get('callback')
  @Header('Cache-Control', 'no-store')
  async callback(@Req() req: Request, @Res() res: Response) {
    this.throttle.take(`sso:ip:${addressKey(req.ip)}`, AUTH_LIMITS.ssoPerAddress);
    const now = this.clock.now().getTime();
    const transaction = presentedTransaction(req, this.box, now);
    dropTransaction(res);
    const ctx = this.access.anonymous(req);
    try {
      if (!transaction) throw new SsoRefusal('no-transaction', null);
      const callback = new URL(req.originalUrl, this.protocol.redirectUri);
      const { session } = await this.signIn.execute(callback, transaction, ctx);
      if (transaction.cli) {
        const handoff = sealHandoff(this.box, session, transaction.cli.challenge, now);
        res.redirect(302, cliCallback(transaction.cli, { handoff }));
        return;
      }
      setSessionCookie(res, session.value, session.expiresAt);
      res.redirect(302, transaction.returnTo);
    } catch (error) {
      await this.refused(error, req, res, transaction?.cli ?? null);
    }
  }

  /** The CLI redeems what its listener received, with the verifier only it kept. */
  @Post('cli-session')
  @HttpCode(200)
  async cliSession(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    this.throttle.take(`sso:ip:${addressKey(req.ip)}`, AUTH_LIMITS.ssoPerAddress);
    const input = (await validateInput(CliSessionInput, jsonBody(req))) as CliSessionInput;
    const session = openHandoff(
      this.box,
      input.handoff,
      input.verifier,
      this.clock.now().getTime(),
    );
    if (!session) {
      throw new AppError('BAD_REQUEST', 'The sign-in hand-off is invalid, expired or not yours', {
        issues: [{ path: 'handoff', message: 'sign in again' }],
      });
    }
    setSessionCookie(res, session.value, session.expiresAt);
    return { status: 'authenticated' };
  }

  /** A refusal is recorded, then told; anything else (a store that is down) answers as usual. */
  private async refused(
    error: unknown,
    req: Request,
    res: Response,
    cli: CliHandoff | null,
  ): Promise<void> {
    if (!(error instanceof SsoRefusal)) throw error;
    await this.refusals.record(error, this.access.anonymous(req));
    const answer = { error: error.reason };
    res.redirect(
      302,
      cli ? cliCallback(cli, answer) : `/login?${new URLSearchParams({ sso_error: error.reason })}`,
    );
  }
}

function cliCallback(cli: CliHandoff, query: Record<string, string>): string {
  return `http://127.0.0.1:${cli.port}/callback?${new URLSearchParams(query)}`;
}
