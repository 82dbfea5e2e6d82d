import { Inject, Injectable } from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { MfaCodes } from './mfa-codes.js';
import { MfaGuardRails } from './mfa-guard-rails.js';
import { mfaDecider } from './mfa.decider.js';
import { mfaStream } from '../../events/mfa.events.js';
import { Totp } from './totp.js';

export class StartMfaEnrollmentInput {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

/** Re-enter the password, get a new TOTP secret (shown this once; stored only encrypted). */
@Injectable()
export class StartMfaEnrollmentHandler {
  constructor(
    private readonly rails: MfaGuardRails,
    private readonly runner: DeciderRunner,
    private readonly totp: Totp,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute(
    password: string,
    ctx: RequestContext,
  ): Promise<{ otpauthUri: string; secret: string }> {
    const userId = this.rails.sessionUser(ctx);
    await this.rails.confirmPassword(userId, password);
    const secret = this.totp.newSecret();
    const secretCiphertext = this.box.seal(secret);
    await this.runner.run(
      mfaStream(userId),
      mfaDecider,
      { kind: 'start', userId, secretCiphertext },
      ctx,
    );
    const account = ctx.principal?.email ?? userId;
    return { otpauthUri: this.totp.uri(secret, account), secret };
  }
}

/** A code from the new secret proves the authenticator works; ten recovery codes, shown once. */
@Injectable()
export class ConfirmMfaEnrollmentHandler {
  constructor(
    private readonly rails: MfaGuardRails,
    private readonly codes: MfaCodes,
  ) {}

  async execute(code: string, ctx: RequestContext): Promise<{ recoveryCodes: string[] }> {
    const userId = this.rails.sessionUser(ctx);
    const state = await this.codes.state(userId);
    const pending = state.pendingSecret;
    const timeStep = await this.codes.totpStep(state, code, pending);
    return this.codes.issueRecoveryCodes(
      { kind: 'confirm', userId, secretCiphertext: pending ?? '', timeStep },
      ctx,
    );
  }
}
