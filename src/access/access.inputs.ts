import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { AGENT_PRESET_NAMES } from './capabilities.js';
import { MAX_TOKEN_DAYS } from './token-policy.js';
import { Omittable } from '../common/omittable.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateAgentInput {
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  name!: string;

  @Omittable()
  @IsIn(AGENT_PRESET_NAMES)
  preset?: string;
}

export class GenerateAgentTokenInput {
  @IsUUID()
  principalId!: string;

  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  tokenName!: string;

  @IsInt()
  @Min(1)
  @Max(MAX_TOKEN_DAYS)
  expiresInDays!: number;

  /** Defaults to the agent's whole preset. */
  @Omittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(32)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  scopes?: string[];
}

export class CreateTokenInput {
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  tokenName!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(32)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  scopes!: string[];

  @Omittable()
  @IsInt()
  @Min(1)
  @Max(MAX_TOKEN_DAYS)
  expiresInDays?: number;
}

export class TokenIdInput {
  @IsUUID()
  tokenId!: string;
}

export class RotateTokenInput {
  @IsUUID()
  tokenId!: string;

  /** How long the old token keeps working beside the new one: 0 (refused at once) to 7 days. */
  @IsInt()
  @Min(0)
  @Max(10_080)
  overlapMinutes!: number;
}

export class InvalidatePrincipalInput {
  @IsUUID()
  principalId!: string;

  @Omittable()
  @IsString()
  @MaxLength(280)
  reason?: string;
}

export class PageInput {
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @Omittable()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}

export class TokensInput extends PageInput {
  @Omittable()
  @IsUUID()
  principalId?: string;
}
