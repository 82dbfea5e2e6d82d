import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Matches,
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

/** Projects a token is limited to: 1-50 project ids (existence is not required: ids only). */
export const ProjectList = () =>
  field(
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(50),
    Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
      each: true,
      message: 'projects holds project ids (1-40 lower-case letters, digits and -)',
    }),
  );
