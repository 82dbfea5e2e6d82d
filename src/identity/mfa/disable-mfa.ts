import type { ICommandHandler } from '@nestjs/cqrs';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { mfaStream } from '../../events/mfa.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { HUMANS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { MfaCodeInput } from './mfa-code.input.js';
import { MfaCodes } from './mfa-codes.js';
import { MfaGuardRails } from './mfa-guard-rails.js';
import { mfaDecider } from './mfa.decider.js';

export class DisableMfaInput extends MfaCodeInput {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

export class DisableMfa extends ProcedureCommand<DisableMfaInput, { disabled: true }> {}

/** Needs both the password and a current code. */
@Procedure.command(DisableMfa, {
  name: 'disableMfa',
  roles: HUMANS,
  sessionOnly: true,
  scopes: [],
  input: DisableMfaInput,
  description: 'Password and a current code turn two-factor authentication off.',
  ownOnly: true,
})
export class DisableMfaHandler implements ICommandHandler<DisableMfa> {
  constructor(
    private readonly rails: MfaGuardRails,
    private readonly runner: DeciderRunner,
    private readonly codes: MfaCodes,
  ) {}

  async execute({ input, ctx }: DisableMfa): Promise<{ disabled: true }> {
    const userId = this.rails.sessionUser(ctx);
    await this.rails.confirmPassword(userId, input.password);
    const timeStep = await this.codes.totpStep(userId, await this.codes.state(userId), input.code);
    await this.runner.run(
      mfaStream(userId),
      mfaDecider,
      { kind: 'disable', userId, timeStep },
      ctx,
    );
    return { disabled: true as const };
  }
}
