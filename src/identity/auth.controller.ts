import {
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Logger,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { AccessService } from '../access/access.service.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { AUTH_LIMITS, Throttle } from './login/throttle.js';
import {
  RequestPasswordResetHandler,
  RequestPasswordResetInput,
  ResetPasswordHandler,
  ResetPasswordInput,
  resetLinkIsLive,
} from './commands/password-reset.handlers.js';
import { RouteAccess } from '../kernel/route-access.js';
import { jsonBody, requireJsonContentType } from '../kernel/json-body.js';
import { validateInput } from '../kernel/input-validation.js';
import { LogInHandler, LoginInput } from './commands/log-in.handler.js';
import { addressKey } from './login/address-key.js';
import { LoginDevices } from './login/login-devices.js';
import { LogOutHandler } from './commands/log-out.handler.js';
import { SignUpHandler, SignUpInput } from './commands/sign-up.handler.js';
import { LoginVerifyInput, VerifyLoginHandler } from './commands/verify-login.handler.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';
import { errorForLog } from '../common/log-text.js';
import { FirstRun } from './first-run.js';
import { AcceptInviteHandler, AcceptInviteInput } from './invites/invite-use.handlers.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { SsoRequirement } from './sso/sso-requirement.js';

const resetLogger = new Logger('PasswordReset');

/** Session authentication for the dashboard and `slipway login --email`. */
@Controller('api/auth')
@RouteAccess({ auth: 'public' })
export class AuthController {
  constructor(
    private readonly logInHandler: LogInHandler,
    private readonly logOutHandler: LogOutHandler,
    private readonly requestPasswordResetHandler: RequestPasswordResetHandler,
    private readonly resetPasswordHandler: ResetPasswordHandler,
    private readonly signUpHandler: SignUpHandler,
    private readonly verifyLoginHandler: VerifyLoginHandler,
    private readonly access: AccessService,
    private readonly throttle: Throttle,
    private readonly devices: LoginDevices,
    private readonly firstRun: FirstRun,
    private readonly acceptInviteHandler: AcceptInviteHandler,
    private readonly sso: SsoRequirement,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * For the dashboard's first page: with no account yet, sign-up makes the owner; after that,
   * `openSignup` says whether sign-up without an invite is possible.
   */
  @Get('first-run')
  @Header('Cache-Control', 'no-store')
  async firstRunState() {
    return { ownerExists: await this.firstRun.ownerExists(), openSignup: this.config.openSignup };
  }

  /** The mailed invite link: into the web app with the token, or with INVALID_TOKEN. */
  @Get('invite')
  @Header('Cache-Control', 'no-store')
  async inviteLink(@Query('token') token: unknown, @Res() res: Response) {
    const live = await this.acceptInviteHandler.isLive(token);
    res.redirect(
      302,
      live && typeof token === 'string'
        ? `/accept-invite?token=${encodeURIComponent(token)}`
        : '/accept-invite?error=INVALID_TOKEN',
    );
  }

  /** `{token, password, name}`: creates the invited account (email and role from the invite). */
  @Post('accept-invite')
  @HttpCode(201)
  async acceptInvite(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    this.throttle.take(`invite:ip:${addressKey(req.ip)}`, AUTH_LIMITS.acceptInvitePerAddress);
    const input = (await validateInput(AcceptInviteInput, jsonBody(req))) as AcceptInviteInput;
    await this.sso.assertPasswordJoin();
    const { user, session } = await this.acceptInviteHandler.execute(
      input,
      this.access.anonymous(req),
    );
    setSessionCookie(res, session.value, session.expiresAt);
    return { user };
  }

  @Post('sign-up')
  @HttpCode(201)
  async signUp(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const input = (await validateInput(SignUpInput, jsonBody(req))) as SignUpInput;
    await this.sso.assertPasswordJoin();
    const ctx = this.access.anonymous(req);
    const { user, session } = await this.signUpHandler.execute(input, ctx);
    setSessionCookie(res, session.value, session.expiresAt);
    return { user };
  }

  @Post('login')
  @HttpCode(200)
  async logIn(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const input = (await validateInput(LoginInput, jsonBody(req))) as LoginInput;
    this.throttle.take(`login:ip:${addressKey(req.ip)}`, AUTH_LIMITS.loginPerAddress);
    // The per-account counts are kept by the handler, before it verifies the password.
    const outcome = await this.logInHandler.execute(
      input,
      this.access.anonymous(req),
      this.devices.presented(req),
    );
    if (outcome.status === 'mfa_required') {
      return { status: 'mfa_required', challenge: outcome.challenge };
    }
    setSessionCookie(res, outcome.session.value, outcome.session.expiresAt);
    this.devices.remember(res, outcome.userId);
    return { status: 'authenticated' };
  }

  /** Second step when MFA is enrolled: `{challenge, totpCode | recoveryCode}`. */
  @Post('login/verify')
  @HttpCode(200)
  async verifyLogin(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const input = (await validateInput(LoginVerifyInput, jsonBody(req))) as LoginVerifyInput;
    this.throttle.take(`verify:ip:${addressKey(req.ip)}`, AUTH_LIMITS.verifyPerAddress);
    const { session, userId } = await this.verifyLoginHandler.execute(
      input,
      this.access.anonymous(req),
    );
    setSessionCookie(res, session.value, session.expiresAt);
    this.devices.remember(res, userId);
    return { status: 'authenticated' };
  }

  /** Always the same answer, whether or not the email has an account (no enumeration). */
  @Post('request-password-reset')
  @HttpCode(200)
  async requestPasswordReset(@Req() req: Request) {
    const input = (await validateInput(
      RequestPasswordResetInput,
      jsonBody(req),
    )) as RequestPasswordResetInput;
    this.throttle.take(
      `reset-request:ip:${addressKey(req.ip)}`,
      AUTH_LIMITS.resetRequestPerAddress,
    );
    this.throttle.take(`reset-request:email:${input.email}`, AUTH_LIMITS.resetRequestPerEmail);
    // The work (and its timing) happens after the answer, so the answer reveals nothing.
    const ctx = this.access.anonymous(req);
    void this.requestPasswordResetHandler.execute(input.email, ctx).catch((error: unknown) => {
      resetLogger.error('Could not send a reset link', errorForLog(error));
    });
    return {
      status: 'accepted',
      message: 'If an account uses this email, a reset link is on its way.',
    };
  }

  /** The mailed link: into the web app with the token, or with INVALID_TOKEN. */
  @Get('reset-password')
  async resetLink(@Query('token') token: unknown, @Res() res: Response) {
    const live =
      typeof token === 'string' &&
      (await resetLinkIsLive(this.reads, this.box, token, this.clock.now().getTime()));
    res.redirect(
      302,
      live
        ? `/reset-password?token=${encodeURIComponent(token)}`
        : '/reset-password?error=INVALID_TOKEN',
    );
  }

  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(@Req() req: Request) {
    this.throttle.take(`reset:ip:${addressKey(req.ip)}`, AUTH_LIMITS.resetPerAddress);
    const input = (await validateInput(ResetPasswordInput, jsonBody(req))) as ResetPasswordInput;
    await this.resetPasswordHandler.execute(
      input.token,
      input.newPassword,
      this.access.anonymous(req),
    );
    return { status: 'password_changed' };
  }

  /** Ends the presented session, if it is still one; always clears the cookie. JSON only. */
  @Post('logout')
  @HttpCode(200)
  async logOut(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    requireJsonContentType(req);
    const ctx = await this.access.sessionIfAny(req);
    if (ctx) await this.logOutHandler.execute(ctx);
    clearSessionCookie(res);
    return { status: 'logged_out' };
  }
}
