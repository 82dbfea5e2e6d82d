import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import { AccessService } from '../access/access.service.js';
import { RouteAccess } from '../http/route-access.js';
import { jsonBody } from '../http/json-body.js';
import { validateInput } from '../rpc/rpc-input.js';
import { LogInCommand } from './commands/log-in.handler.js';
import { LogOutCommand } from './commands/log-out.handler.js';
import { SignUpCommand } from './commands/sign-up.handler.js';
import { VerifyLoginCommand } from './commands/verify-login.handler.js';
import { LoginVerifyInput } from './mfa/mfa.inputs.js';
import { LoginInput, SignUpInput } from './identity.inputs.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

/** Session authentication for the dashboard and `slipway login --email`. */
@Controller('api/auth')
@RouteAccess({ auth: 'public' })
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly access: AccessService,
  ) {}

  @Post('sign-up')
  @HttpCode(201)
  async signUp(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const input = (await validateInput(SignUpInput, jsonBody(req))) as SignUpInput;
    const ctx = this.access.anonymous(req);
    const { user, session } = await this.commands.execute(new SignUpCommand(input, ctx));
    setSessionCookie(res, session.value, session.expiresAt);
    return { user };
  }

  @Post('login')
  @HttpCode(200)
  async logIn(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const input = (await validateInput(LoginInput, jsonBody(req))) as LoginInput;
    const outcome = await this.commands.execute(
      new LogInCommand(input, this.access.anonymous(req)),
    );
    if (outcome.status === 'mfa_required') {
      return { status: 'mfa_required', challenge: outcome.challenge };
    }
    setSessionCookie(res, outcome.session.value, outcome.session.expiresAt);
    return { status: 'authenticated' };
  }

  /** Second step when MFA is enrolled: `{challenge, totpCode | recoveryCode}`. */
  @Post('login/verify')
  @HttpCode(200)
  async verifyLogin(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const input = (await validateInput(LoginVerifyInput, jsonBody(req))) as LoginVerifyInput;
    const session = await this.commands.execute(
      new VerifyLoginCommand(input, this.access.anonymous(req)),
    );
    setSessionCookie(res, session.value, session.expiresAt);
    return { status: 'authenticated' };
  }

  /** Ends the presented session, if it is still one; always clears the cookie. */
  @Post('logout')
  @HttpCode(200)
  async logOut(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const ctx = await this.access.sessionIfAny(req);
    if (ctx) await this.commands.execute(new LogOutCommand(ctx));
    clearSessionCookie(res);
    return { status: 'logged_out' };
  }
}
