import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RequestContext } from '../../kernel/request-context.js';
import { Procedure } from '../../kernel/procedure.js';
import {
  ConfirmMfaEnrollmentCommand,
  StartMfaEnrollmentCommand,
} from './mfa-enrollment.handlers.js';
import { DisableMfaCommand, RotateRecoveryCodesCommand } from './mfa-maintenance.handlers.js';
import { DisableMfaInput, MfaCodeInput, StartMfaEnrollmentInput } from './mfa.inputs.js';
import { HUMANS } from '../../kernel/roles.js';

/** Self-service second factor. Session-only; no scope, since each user manages only their own. */
@Injectable()
export class MfaProcedures {
  constructor(private readonly commands: CommandBus) {}

  @Procedure({
    name: 'startMfaEnrollment',
    lane: 'command',
    auth: 'authenticated',
    roles: HUMANS,
    scopes: [],
    input: StartMfaEnrollmentInput,
    mfaExempt: true,
    description:
      'Re-enter the password; returns {otpauthUri, secret} for the authenticator, shown once.',
  })
  startMfaEnrollment(input: StartMfaEnrollmentInput, ctx: RequestContext) {
    return this.commands.execute(new StartMfaEnrollmentCommand(input.password, ctx));
  }

  @Procedure({
    name: 'confirmMfaEnrollment',
    lane: 'command',
    auth: 'authenticated',
    roles: HUMANS,
    scopes: [],
    input: MfaCodeInput,
    mfaExempt: true,
    description:
      'A code from the new secret completes enrolment; returns 10 recovery codes, shown once.',
  })
  confirmMfaEnrollment(input: MfaCodeInput, ctx: RequestContext) {
    return this.commands.execute(new ConfirmMfaEnrollmentCommand(input.code, ctx));
  }

  @Procedure({
    name: 'rotateRecoveryCodes',
    lane: 'command',
    auth: 'authenticated',
    roles: HUMANS,
    scopes: [],
    input: MfaCodeInput,
    description: 'A current code buys a new set of 10 recovery codes; the old set stops working.',
  })
  rotateRecoveryCodes(input: MfaCodeInput, ctx: RequestContext) {
    return this.commands.execute(new RotateRecoveryCodesCommand(input.code, ctx));
  }

  @Procedure({
    name: 'disableMfa',
    lane: 'command',
    auth: 'authenticated',
    roles: HUMANS,
    scopes: [],
    input: DisableMfaInput,
    description: 'Password and a current code turn two-factor authentication off.',
  })
  disableMfa(input: DisableMfaInput, ctx: RequestContext) {
    return this.commands.execute(new DisableMfaCommand(input.password, input.code, ctx));
  }
}
