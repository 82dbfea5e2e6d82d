import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { AUTH_LIMITS, Throttle } from '../login/throttle.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { invalidCode, mfaDecider, type MfaCommand, type MfaState } from './mfa.decider.js';
import { mfaStream } from '../../events/mfa.events.js';
import { canonicalRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { Totp } from './totp.js';

const failuresKey = (userId: string) => `second-factor-failures:${userId}`;

/** A command that records a new set of recovery codes (enrolment confirmed, codes rotated). */
type IssuingCommand = Extract<MfaCommand, { recoveryCodeDigests: string[] }>;
type WithoutDigests<C> = C extends unknown ? Omit<C, 'recoveryCodeDigests'> : never;

/**
 * Verifies a TOTP or recovery code of an enrolled user and records its use (once only); issues
 * new sets of recovery codes.
 */
@Injectable()
export class MfaCodes {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly totp: Totp,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly throttle: Throttle,
  ) {}

  state(userId: string): Promise<MfaState> {
    return this.runner.load(mfaStream(userId), mfaDecider);
  }

  /**
   * The time step of a valid code for the enrolled secret; refuses a wrong code. Wrong codes are
   * counted per account (`secondFactorFailuresPerAccount`): a million codes are not guessed.
   */
  async totpStep(
    userId: string,
    state: MfaState,
    code: string,
    secretCiphertext = state.secret,
  ): Promise<number> {
    const key = failuresKey(userId);
    this.throttle.check(key, AUTH_LIMITS.secondFactorFailuresPerAccount);
    const step = secretCiphertext
      ? await this.totp.match(this.box.open(secretCiphertext), code)
      : null;
    if (step === null) {
      this.throttle.hit(key, AUTH_LIMITS.secondFactorFailuresPerAccount);
      throw invalidCode();
    }
    this.throttle.reset(key);
    return step;
  }

  async acceptLoginCode(
    userId: string,
    codes: { totpCode?: string; recoveryCode?: string },
    ctx: RequestContext,
  ): Promise<void> {
    const state = await this.state(userId);
    if (codes.totpCode) {
      const timeStep = await this.totpStep(userId, state, codes.totpCode);
      await this.runner.run(
        mfaStream(userId),
        mfaDecider,
        { kind: 'acceptTotp', userId, timeStep, purpose: 'login' },
        ctx,
      );
      return;
    }
    const key = failuresKey(userId);
    this.throttle.check(key, AUTH_LIMITS.secondFactorFailuresPerAccount);
    const codeDigest = this.box.digest(canonicalRecoveryCode(codes.recoveryCode ?? ''));
    try {
      await this.runner.run(
        mfaStream(userId),
        mfaDecider,
        { kind: 'useRecoveryCode', userId, codeDigest },
        ctx,
      );
    } catch (error) {
      if (error instanceof AppError && error.data?.reason === 'INVALID_CODE')
        this.throttle.hit(key, AUTH_LIMITS.secondFactorFailuresPerAccount);
      throw error;
    }
    this.throttle.reset(key);
  }

  /**
   * Runs `command` with a new set of recovery codes: only their digests are recorded; the codes
   * are returned, to be shown this once.
   */
  async issueRecoveryCodes(
    command: WithoutDigests<IssuingCommand>,
    ctx: RequestContext,
  ): Promise<{ recoveryCodes: string[] }> {
    const recoveryCodes = newRecoveryCodes();
    const recoveryCodeDigests = recoveryCodes.map((c) => this.box.digest(canonicalRecoveryCode(c)));
    await this.runner.run(
      mfaStream(command.userId),
      mfaDecider,
      { ...command, recoveryCodeDigests },
      ctx,
    );
    return { recoveryCodes };
  }
}
