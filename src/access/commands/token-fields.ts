import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { field } from '../../common/field-rules.js';
import { MAX_TOKEN_DAYS } from '../token-policy.js';

/** Scopes asked for: 1-32 scope names (checked against the catalogue by the handler). */
export const ScopeList = () =>
  field(
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(32),
    IsString({ each: true }),
    MaxLength(64, { each: true }),
  );

/** How long a new token lives, in days (`createToken`, `generateAgentToken`). */
export const TokenLifetimeDays = () => field(IsInt(), Min(1), Max(MAX_TOKEN_DAYS));
