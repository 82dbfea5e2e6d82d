import { Matches } from 'class-validator';

/** What an authenticator app shows. */
export const SIX_DIGITS = /^\d{6}$/;

/** A current code: `confirmMfaEnrollment`, `rotateRecoveryCodes`; `disableMfa` extends it. */
export class MfaCodeInput {
  @Matches(SIX_DIGITS, { message: 'code must be the 6 digits your authenticator shows' })
  code!: string;
}
