import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { mfaStream } from '../../events/mfa.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { HUMANS } from '../../kernel/roles.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { MfaGuardRails } from './mfa-guard-rails.js';
import { mfaDecider } from './mfa.decider.js';
import { Totp } from './totp.js';

export class StartMfaEnrollmentInput {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

export class StartMfaEnrollment extends ProcedureCommand<
  StartMfaEnrollmentInput,
  { otpauthUri: string; secret: string }
> {}

/**
 * Re-enter the password, get a new TOTP secret (shown this once; stored only encrypted).
 * Self-service second factor, as the rest of mfa/: session-only, and no scope, since each user
 * manages only their own.
 */
@Procedure.command(StartMfaEnrollment, {
  name: 'startMfaEnrollment',
  roles: HUMANS,
  sessionOnly: true,
  scopes: [],
  input: StartMfaEnrollmentInput,
  mfaExempt: true,
  description:
    'Re-enter the password; returns {otpauthUri, secret} for the authenticator, shown once.',
  ownOnly: true,
})
export class StartMfaEnrollmentHandler implements ICommandHandler<StartMfaEnrollment> {
  constructor(
    private readonly rails: MfaGuardRails,
    private readonly runner: DeciderRunner,
    private readonly totp: Totp,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({
    input,
    ctx,
  }: StartMfaEnrollment): Promise<{ otpauthUri: string; secret: string }> {
    const userId = this.rails.sessionUser(ctx);
    await this.rails.confirmPassword(userId, input.password);
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
