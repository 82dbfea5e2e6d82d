import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Omittable } from '../../common/omittable.js';

const SIX_DIGITS = /^\d{6}$/;

export class StartMfaEnrollmentInput {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

export class MfaCodeInput {
  @Matches(SIX_DIGITS, { message: 'code must be the 6 digits your authenticator shows' })
  code!: string;
}

export class DisableMfaInput extends MfaCodeInput {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

/** Second step of an MFA login: the challenge and exactly one of the two kinds of code. */
export class LoginVerifyInput {
  @IsString()
  @MinLength(20)
  @MaxLength(100)
  challenge!: string;

  @Omittable()
  @Matches(SIX_DIGITS, { message: 'totpCode must be 6 digits' })
  totpCode?: string;

  @Omittable()
  @IsString()
  @MinLength(10)
  @MaxLength(20)
  recoveryCode?: string;
}
