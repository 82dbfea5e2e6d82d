import { PersonalData } from '../../privacy/personal-data.js';
import { credentialByEmail } from '../credential-lookup.js';
import { randomBytes } from 'node:crypto';
import { Inject, Logger, Injectable } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { PasswordResetDoc } from '../../../projections/password-resets.projection.js';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { MAIL_SENDER, type MailSender } from '../../mail/mail-sender.port.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { EventWriter } from '../../storage/event-writer.js';
import { EVENT_STORE, type EventStore } from '../../eventstore/event-store.port.js';
import { PasswordChanged, userStream } from '../../events/identity.events.js';
import { NewPassword, OneTimeSecret } from '../credential-fields.js';
import { SessionTerminator } from '../session-terminator.js';
import { addressKey } from '../login/address-key.js';
import { LoginAttempts } from '../login/login-attempts.js';
import { PasswordHasher } from '../password-hasher.js';
import { loginAccountKey } from './log-in.handler.js';
import { invalidResetToken, passwordResetDecider } from '../password-reset.decider.js';
import { normaliseEmail } from './normalise-email.js';

export const RESET_TTL_MS = 30 * 60_000;
const resetStream = (digest: string) => `password-reset-${digest}`;
const logger = new Logger('PasswordReset');

export class RequestPasswordResetInput {
  @Transform(normaliseEmail)
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  email!: string;
}

/** The link is mailed; only a keyed digest of its token is recorded. */
@Injectable()
export class RequestPasswordResetHandler {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly runner: DeciderRunner,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly personal: PersonalData,
  ) {}

  async execute(email: string, ctx: RequestContext): Promise<void> {
    const credential = await credentialByEmail(this.reads, this.personal, email);
    const user = credential
      ? await this.reads.collection<PrincipalDoc>('principals').get(credential.id)
      : null;
    if (!user || user.status !== 'active') return;
    const token = randomBytes(32).toString('base64url');
    const tokenDigest = this.box.digest(token);
    const expiresAt = new Date(this.clock.now().getTime() + RESET_TTL_MS).toISOString();
    await this.runner.run(
      resetStream(tokenDigest),
      passwordResetDecider,
      { kind: 'request', userId: user.id, tokenDigest, expiresAt },
      ctx,
    );
    const link = `${this.config.publicUrl}/api/auth/reset-password?token=${token}`;
    await this.mail.send({
      to: email,
      subject: 'Reset your Slipway password',
      text:
        `Someone asked to reset the password of your Slipway account (${email}).\n\n` +
        `To choose a new password, open this link within 30 minutes. It works once:\n\n${link}\n\n` +
        'If you did not ask for this, ignore this message; your password stays as it is.\n',
    });
    logger.log(`Reset link mailed for user ${user.id}`);
  }
}

/** Whether a link still works (for the redirect), without using it up. */
export async function resetLinkIsLive(
  reads: ReadStore,
  box: SecretBox,
  token: string,
  now: number,
): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return false;
  const doc = await reads.collection<PasswordResetDoc>('password_resets').get(box.digest(token));
  return !!doc && !doc.completedAt && Date.parse(doc.expiresAt) > now;
}

export class ResetPasswordInput {
  @OneTimeSecret()
  token!: string;

  @NewPassword()
  newPassword!: string;
}

/**
 * New password, every session of the user ended, and the link dead. A link is good only while
 * the password is the one it was requested under: once a reset (or any change) sets another,
 * every older link is dead too, so a link seen once cannot take the account back later.
 */
@Injectable()
export class ResetPasswordHandler {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly writer: EventWriter,
    private readonly sessions: SessionTerminator,
    private readonly hasher: PasswordHasher,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly attempts: LoginAttempts,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  /** A completed reset also clears the account's login counts and trusts the resetting address. */
  async execute(
    token: string,
    newPassword: string,
    ctx: RequestContext,
  ): Promise<{ endedSessions: number }> {
    const tokenDigest = this.box.digest(token);
    const passwordHash = await this.hasher.hash(newPassword);
    const link = await this.runner.load(resetStream(tokenDigest), passwordResetDecider);
    if (
      link.userId &&
      (await this.passwordChangedSince(link.userId, link.expiresAt - RESET_TTL_MS))
    )
      throw invalidResetToken();
    const decision = await this.runner.run(
      resetStream(tokenDigest),
      passwordResetDecider,
      { kind: 'complete', tokenDigest, now: this.clock.now().getTime() },
      ctx,
    );
    const userId = decision.state.userId!;
    await this.writer.append(
      userStream(userId),
      [PasswordChanged({ userId, passwordHash, reason: 'reset' })],
      'any',
      ctx,
    );
    const endedSessions = await this.sessions.endAll(userId, 'password-reset', ctx);
    const account = loginAccountKey(userId);
    this.attempts.recovered(account);
    this.attempts.signedIn(account, addressKey(ctx.clientAddress));
    return { endedSessions };
  }

  /** Whether the user's stream records a password set at or after `since` (ms). */
  private async passwordChangedSince(userId: string, since: number): Promise<boolean> {
    const events = await this.events.readStream(userStream(userId));
    return events.some((e) => e.type === PasswordChanged.type && Date.parse(e.recordedAt) >= since);
  }
}
