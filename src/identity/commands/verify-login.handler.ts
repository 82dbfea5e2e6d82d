import { principalOf } from '../../access/principal-of.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { Inject, Injectable } from '@nestjs/common';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import { actingAs, type RequestContext } from '../../kernel/request-context.js';
import { AppError, attributed, badRequest } from '../../common/app-error.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { OneTimeSecret } from '../credential-fields.js';
import { addressKey } from '../login/address-key.js';
import { LoginAttempts } from '../login/login-attempts.js';
import { LoginChallenges } from '../mfa/login-challenges.js';
import { loginAccountKey } from './log-in.handler.js';
import { MfaCodes } from '../mfa/mfa-codes.js';
import { Omittable } from '../../common/omittable.js';
import { SIX_DIGITS } from '../mfa/mfa-code.input.js';
import { SessionStarter, type StartedSession } from '../session-starter.js';
import { SsoRequirement } from '../sso/sso-requirement.js';

export interface VerifiedLogin {
  session: StartedSession;
  userId: string;
}

const refused = () => new AppError('INVALID_CREDENTIALS', 'The code or the challenge is not valid');

/** Second step of an MFA login: the challenge and exactly one of the two kinds of code. */
export class LoginVerifyInput {
  @OneTimeSecret()
  challenge!: string;

  @Omittable()
  @Matches(SIX_DIGITS, { message: 'totpCode must be 6 digits' })
  totpCode?: string;

  @Omittable()
  @IsString()
  @MinLength(10)
  @MaxLength(20)
  recoveryCode?: string;
}

/**
 * Second factor of a login: a TOTP code (once) or a recovery code (once) → an MFA session. A
 * passed second factor clears the account's login counts (lock included) and makes the address
 * known to the account.
 */
@Injectable()
export class VerifyLoginHandler {
  constructor(
    private readonly challenges: LoginChallenges,
    private readonly codes: MfaCodes,
    private readonly sessions: SessionStarter,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly personal: PersonalData,
    private readonly attempts: LoginAttempts,
    private readonly sso: SsoRequirement,
  ) {}

  async execute(input: LoginVerifyInput, ctx: RequestContext): Promise<VerifiedLogin> {
    if (!input.totpCode === !input.recoveryCode) {
      throw badRequest('Give exactly one of totpCode and recoveryCode', [
        { path: 'totpCode', message: 'exactly one of totpCode, recoveryCode' },
      ]);
    }
    const userId = this.challenges.userOf(input.challenge);
    if (!userId) throw refused();
    const principal = await this.reads.collection<PrincipalDoc>('principals').get(userId);
    if (!principal || principal.status !== 'active') throw refused();
    const actor = await principalOf(principal, this.personal);
    const acting = actingAs(ctx, actor);
    try {
      await this.codes.acceptLoginCode(userId, input, acting);
    } catch (error) {
      if (error instanceof AppError && error.data.reason === 'INVALID_CODE') {
        this.challenges.fail(input.challenge);
        throw attributed(refused(), userId);
      }
      throw error;
    }
    this.challenges.consume(input.challenge);
    await this.sso.recordBreakGlass(userId, actor.role, acting);
    const session = await this.sessions.start(userId, acting, true);
    const account = loginAccountKey(userId);
    this.attempts.recovered(account);
    this.attempts.signedIn(account, addressKey(ctx.clientAddress));
    return { session, userId };
  }
}
