import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { DisplayName } from '../common/field-rules.js';
import { HUMANS } from '../kernel/roles.js';

const normaliseEmail = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class SignUpInput {
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  @IsString()
  @MinLength(12, { message: 'password must be at least 12 characters' })
  @MaxLength(256)
  password!: string;

  @DisplayName()
  name!: string;
}

export class LoginInput {
  @Transform(normaliseEmail)
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

export class ChangeUserRoleInput {
  @IsUUID()
  userId!: string;

  @IsIn(HUMANS)
  role!: (typeof HUMANS)[number];
}

export class DeactivateUserInput {
  @IsUUID()
  userId!: string;
}

export class RequestPasswordResetInput {
  @Transform(normaliseEmail)
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  email!: string;
}

export class ResetPasswordInput {
  @IsString()
  @MinLength(20)
  @MaxLength(100)
  token!: string;

  @IsString()
  @MinLength(12, { message: 'newPassword must be at least 12 characters' })
  @MaxLength(256)
  newPassword!: string;
}
