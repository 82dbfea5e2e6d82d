import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../../kernel/procedure.js';
import {
  ConfirmMfaEnrollmentHandler,
  StartMfaEnrollmentHandler,
  StartMfaEnrollmentInput,
} from './mfa-enrollment.handlers.js';
import {
  DisableMfaHandler,
  DisableMfaInput,
  RotateRecoveryCodesHandler,
} from './mfa-maintenance.handlers.js';
import { MfaCodeInput } from './mfa-code.input.js';
import { HUMANS } from '../../kernel/roles.js';

/** Self-service second factor. Session-only; no scope, since each user manages only their own. */
@Injectable()
export class MfaProcedures {
  constructor(
    private readonly confirmMfaEnrollmentHandler: ConfirmMfaEnrollmentHandler,
    private readonly disableMfaHandler: DisableMfaHandler,
    private readonly rotateRecoveryCodesHandler: RotateRecoveryCodesHandler,
    private readonly startMfaEnrollmentHandler: StartMfaEnrollmentHandler,
  ) {}

  @Procedure.command({
    name: 'startMfaEnrollment',
    roles: HUMANS,
    sessionOnly: true,
    scopes: [],
    input: StartMfaEnrollmentInput,
    mfaExempt: true,
    description:
      'Re-enter the password; returns {otpauthUri, secret} for the authenticator, shown once.',
  })
  startMfaEnrollment(input: StartMfaEnrollmentInput, ctx: RequestContext) {
    return this.startMfaEnrollmentHandler.execute(input.password, ctx);
  }

  @Procedure.command({
    name: 'confirmMfaEnrollment',
    roles: HUMANS,
    sessionOnly: true,
    scopes: [],
    input: MfaCodeInput,
    mfaExempt: true,
    description:
      'A code from the new secret completes enrolment; returns 10 recovery codes, shown once.',
  })
  confirmMfaEnrollment(input: MfaCodeInput, ctx: RequestContext) {
    return this.confirmMfaEnrollmentHandler.execute(input.code, ctx);
  }

  @Procedure.command({
    name: 'rotateRecoveryCodes',
    roles: HUMANS,
    sessionOnly: true,
    scopes: [],
    input: MfaCodeInput,
    description: 'A current code buys a new set of 10 recovery codes; the old set stops working.',
  })
  rotateRecoveryCodes(input: MfaCodeInput, ctx: RequestContext) {
    return this.rotateRecoveryCodesHandler.execute(input.code, ctx);
  }

  @Procedure.command({
    name: 'disableMfa',
    roles: HUMANS,
    sessionOnly: true,
    scopes: [],
    input: DisableMfaInput,
    description: 'Password and a current code turn two-factor authentication off.',
  })
  disableMfa(input: DisableMfaInput, ctx: RequestContext) {
    return this.disableMfaHandler.execute(input.password, input.code, ctx);
  }
}
