import type { ICommandHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { HUMANS } from '../../kernel/roles.js';
import { MfaCodeInput } from './mfa-code.input.js';
import { MfaCodes } from './mfa-codes.js';
import { MfaGuardRails } from './mfa-guard-rails.js';

export class ConfirmMfaEnrollment extends ProcedureCommand<
  MfaCodeInput,
  { recoveryCodes: string[] }
> {}

/** A code from the new secret proves the authenticator works; ten recovery codes, shown once. */
@Procedure.command(ConfirmMfaEnrollment, {
  name: 'confirmMfaEnrollment',
  roles: HUMANS,
  sessionOnly: true,
  scopes: [],
  input: MfaCodeInput,
  mfaExempt: true,
  description:
    'A code from the new secret completes enrolment; returns 10 recovery codes, shown once.',
  ownOnly: true,
})
export class ConfirmMfaEnrollmentHandler implements ICommandHandler<ConfirmMfaEnrollment> {
  constructor(
    private readonly rails: MfaGuardRails,
    private readonly codes: MfaCodes,
  ) {}

  async execute({ input, ctx }: ConfirmMfaEnrollment): Promise<{ recoveryCodes: string[] }> {
    const userId = this.rails.sessionUser(ctx);
    const state = await this.codes.state(userId);
    const pending = state.pendingSecret;
    const timeStep = await this.codes.totpStep(userId, state, input.code, pending);
    return this.codes.issueRecoveryCodes(
      { kind: 'confirm', userId, secretCiphertext: pending ?? '', timeStep },
      ctx,
    );
  }
}
