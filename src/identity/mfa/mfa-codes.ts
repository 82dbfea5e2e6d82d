import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { invalidCode, mfaDecider, type MfaCommand, type MfaState } from './mfa.decider.js';
import { mfaStream } from '../../events/mfa.events.js';
import { canonicalRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { Totp } from './totp.js';

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
  ) {}

  state(userId: string): Promise<MfaState> {
    return this.runner.load(mfaStream(userId), mfaDecider);
  }

  /** The time step of a valid code for the enrolled secret; refuses a wrong code. */
  async totpStep(state: MfaState, code: string, secretCiphertext = state.secret): Promise<number> {
    if (!secretCiphertext) throw invalidCode();
    const step = await this.totp.match(this.box.open(secretCiphertext), code);
    if (step === null) throw invalidCode();
    return step;
  }

  async acceptLoginCode(
    userId: string,
    codes: { totpCode?: string; recoveryCode?: string },
    ctx: RequestContext,
  ): Promise<void> {
    const state = await this.state(userId);
    if (codes.totpCode) {
      const timeStep = await this.totpStep(state, codes.totpCode);
      await this.runner.run(
        mfaStream(userId),
        mfaDecider,
        { kind: 'acceptTotp', userId, timeStep, purpose: 'login' },
        ctx,
      );
      return;
    }
    const codeDigest = this.box.digest(canonicalRecoveryCode(codes.recoveryCode ?? ''));
    await this.runner.run(
      mfaStream(userId),
      mfaDecider,
      { kind: 'useRecoveryCode', userId, codeDigest },
      ctx,
    );
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
