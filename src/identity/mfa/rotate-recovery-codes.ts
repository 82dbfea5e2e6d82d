import type { ICommandHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { HUMANS } from '../../kernel/roles.js';
import { MfaCodeInput } from './mfa-code.input.js';
import { MfaCodes } from './mfa-codes.js';
import { MfaGuardRails } from './mfa-guard-rails.js';

export class RotateRecoveryCodes extends ProcedureCommand<
  MfaCodeInput,
  { recoveryCodes: string[] }
> {}

/** A fresh set of ten codes; every code of the old set stops working. */
@Procedure.command(RotateRecoveryCodes, {
  name: 'rotateRecoveryCodes',
  roles: HUMANS,
  sessionOnly: true,
  scopes: [],
  input: MfaCodeInput,
  description: 'A current code buys a new set of 10 recovery codes; the old set stops working.',
  ownOnly: true,
})
export class RotateRecoveryCodesHandler implements ICommandHandler<RotateRecoveryCodes> {
  constructor(
    private readonly rails: MfaGuardRails,
    private readonly codes: MfaCodes,
  ) {}

  async execute({ input, ctx }: RotateRecoveryCodes): Promise<{ recoveryCodes: string[] }> {
    const userId = this.rails.sessionUser(ctx);
    const timeStep = await this.codes.totpStep(userId, await this.codes.state(userId), input.code);
    return this.codes.issueRecoveryCodes({ kind: 'rotate', userId, timeStep }, ctx);
  }
}
