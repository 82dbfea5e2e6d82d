import { Injectable } from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { MfaCodes } from './mfa-codes.js';
import { MfaGuardRails } from './mfa-guard-rails.js';
import { mfaDecider } from './mfa.decider.js';
import { mfaStream } from '../../events/mfa.events.js';
import { MfaCodeInput } from './mfa-code.input.js';

/** A fresh set of ten codes; every code of the old set stops working. */
@Injectable()
export class RotateRecoveryCodesHandler {
  constructor(
    private readonly rails: MfaGuardRails,
    private readonly codes: MfaCodes,
  ) {}

  async execute(code: string, ctx: RequestContext): Promise<{ recoveryCodes: string[] }> {
    const userId = this.rails.sessionUser(ctx);
    const timeStep = await this.codes.totpStep(await this.codes.state(userId), code);
    return this.codes.issueRecoveryCodes({ kind: 'rotate', userId, timeStep }, ctx);
  }
}

export class DisableMfaInput extends MfaCodeInput {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

/** Needs both the password and a current code. */
@Injectable()
export class DisableMfaHandler {
  constructor(
    private readonly rails: MfaGuardRails,
    private readonly runner: DeciderRunner,
    private readonly codes: MfaCodes,
  ) {}

  async execute(password: string, code: string, ctx: RequestContext): Promise<{ disabled: true }> {
    const userId = this.rails.sessionUser(ctx);
    await this.rails.confirmPassword(userId, password);
    const timeStep = await this.codes.totpStep(await this.codes.state(userId), code);
    await this.runner.run(
      mfaStream(userId),
      mfaDecider,
      { kind: 'disable', userId, timeStep },
      ctx,
    );
    return { disabled: true as const };
  }
}
