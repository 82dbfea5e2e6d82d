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
} from 'class-validator';
import { AGENT_PRESET_NAMES } from './capabilities.js';
import { MAX_TOKEN_DAYS } from './token-policy.js';
import { DisplayName, PageCursor, PageLimit, field } from '../common/field-rules.js';
import { Omittable } from '../common/omittable.js';

/** Scopes asked for: 1-32 scope names (checked against the catalogue by the handler). */
const ScopeList = () =>
  field(
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(32),
    IsString({ each: true }),
    MaxLength(64, { each: true }),
  );

const TokenLifetimeDays = () => field(IsInt(), Min(1), Max(MAX_TOKEN_DAYS));

export class CreateAgentInput {
  @DisplayName()
  name!: string;

  @Omittable()
  @IsIn(AGENT_PRESET_NAMES)
  preset?: string;
}

export class GenerateAgentTokenInput {
  @IsUUID()
  principalId!: string;

  @DisplayName()
  tokenName!: string;

  @TokenLifetimeDays()
  expiresInDays!: number;

  /** Defaults to the agent's whole preset. */
  @Omittable()
  @ScopeList()
  scopes?: string[];
}

export class CreateTokenInput {
  @DisplayName()
  tokenName!: string;

  @ScopeList()
  scopes!: string[];

  @Omittable()
  @TokenLifetimeDays()
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
  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export class TokensInput extends PageInput {
  @Omittable()
  @IsUUID()
  principalId?: string;
}
