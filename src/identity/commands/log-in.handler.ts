import { principalOf } from '../../access/principal-of.js';
import { Inject, Injectable } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { MfaDoc } from '../../../projections/mfa.projection.js';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { credentialByEmail } from '../credential-lookup.js';
import { actingAs, type RequestContext } from '../../kernel/request-context.js';
import { AppError, attributed } from '../../common/app-error.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { normaliseEmail } from './normalise-email.js';
import { addressKey } from '../login/address-key.js';
import { LoginAttempts } from '../login/login-attempts.js';
import { LoginDevices } from '../login/login-devices.js';
import { LoginChallenges } from '../mfa/login-challenges.js';
import { PasswordHasher } from '../password-hasher.js';
import { SessionStarter, type StartedSession } from '../session-starter.js';
import { SsoRequirement } from '../sso/sso-requirement.js';

export type LogInOutcome =
  | { status: 'authenticated'; session: StartedSession; userId: string }
  | { status: 'mfa_required'; challenge: string };

/** The key login attempts are counted under: the account, or the email when there is none. */
export const loginAccountKey = (userId: string | null, email = '') =>
  userId ? `user:${userId}` : `email:${email}`;

export class LoginInput {
  @Transform(normaliseEmail)
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

/**
 * Unknown email, deactivated user and wrong password get one answer, and each path verifies
 * one argon2 hash, so neither the answer nor its timing tells them apart. The attempt is
 * counted (or refused) before the password is verified, in one synchronous step.
 */
@Injectable()
export class LogInHandler {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStarter,
    private readonly challenges: LoginChallenges,
    private readonly personal: PersonalData,
    private readonly attempts: LoginAttempts,
    private readonly devices: LoginDevices,
    private readonly sso: SsoRequirement,
  ) {}

  async execute(
    input: LoginInput,
    ctx: RequestContext,
    /** The device cookie the browser presented, unchecked. */
    device: string | null = null,
  ): Promise<LogInOutcome> {
    const credential = await credentialByEmail(this.reads, this.personal, input.email);
    const account = loginAccountKey(credential?.id ?? null, input.email);
    const address = addressKey(ctx.clientAddress);
    let ticket;
    try {
      ticket = this.attempts.admit(account, {
        address,
        deviceId: credential ? this.devices.verify(credential.id, device) : null,
      });
    } catch (error) {
      throw error instanceof AppError ? attributed(error, credential?.id ?? null) : error;
    }
    const ok = await this.hasher.verify(credential?.passwordHash ?? null, input.password);
    const principal = credential
      ? await this.reads.collection<PrincipalDoc>('principals').get(credential.id)
      : null;
    if (!ok || !principal || principal.status !== 'active') {
      // The audit trail names the account a failed sign-in was aimed at; the answer does not.
      throw attributed(
        new AppError('INVALID_CREDENTIALS', 'Email or password is wrong'),
        credential?.id ?? null,
      );
    }
    this.attempts.succeeded(ticket);
    const actor = await principalOf(principal, this.personal);
    const mfa = await this.reads.collection<MfaDoc>('mfa').get(principal.id);
    await this.sso.assertPasswordSignIn(principal.id, principal.role, mfa?.status === 'enrolled');
    if (mfa?.status === 'enrolled') {
      return { status: 'mfa_required', challenge: this.challenges.issue(principal.id) };
    }
    const session = await this.sessions.start(principal.id, actingAs(ctx, actor));
    this.attempts.signedIn(account, address);
    return { status: 'authenticated', session, userId: principal.id };
  }
}
