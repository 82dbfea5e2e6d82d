import {
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

export const OUTCOMES = ['succeeded', 'denied', 'rejected'] as const;

/** Filters of `auditTrail`; all optional, combined with AND. */
export class AuditTrailInput {
  /** Principal id of the actor (user or agent). */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  actor?: string;

  /** Event type, e.g. `TokenRevoked`, `AccessDenied`. */
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9]{0,63}$/, { message: 'action must be an event type name' })
  action?: string;

  /** Target stream, e.g. `token-<id>`. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  stream?: string;

  /** Resource: a stream, or `procedure:<name>` / `route:<METHOD /path>` for refusals. */
  @IsOptional()
  @IsString()
  @MaxLength(300)
  resource?: string;

  /** Everything one request did (its `X-Request-Id`). */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  requestId?: string;

  @IsOptional()
  @IsIn(OUTCOMES)
  outcome?: (typeof OUTCOMES)[number];

  /** Inclusive lower bound on the time recorded (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** Exclusive upper bound on the time recorded (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}
