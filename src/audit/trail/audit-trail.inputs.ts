import { PageLimit, PageCursor } from '../../common/field-rules.js';
import { IsIn, IsISO8601, IsString, Matches, MaxLength } from 'class-validator';
import { Omittable } from '../../common/omittable.js';

export const OUTCOMES = ['succeeded', 'denied', 'rejected'] as const;

/** Filters of `auditTrail`; all optional, combined with AND. */
export class AuditTrailInput {
  /** Principal id of the actor (user or agent). */
  @Omittable()
  @IsString()
  @MaxLength(128)
  actor?: string;

  /** Event type, e.g. `TokenRevoked`, `AccessDenied`. */
  @Omittable()
  @Matches(/^[A-Za-z][A-Za-z0-9]{0,63}$/, { message: 'action must be an event type name' })
  action?: string;

  /** Target stream, e.g. `token-<id>`. */
  @Omittable()
  @IsString()
  @MaxLength(200)
  stream?: string;

  /** Resource: a stream, or `procedure:<name>` / `route:<METHOD /path>` for refusals. */
  @Omittable()
  @IsString()
  @MaxLength(300)
  resource?: string;

  /** Everything one request did (its `X-Request-Id`). */
  @Omittable()
  @IsString()
  @MaxLength(128)
  requestId?: string;

  @Omittable()
  @IsIn(OUTCOMES)
  outcome?: (typeof OUTCOMES)[number];

  /** Inclusive lower bound on the time recorded (ISO 8601). */
  @Omittable()
  @IsISO8601({ strict: true })
  from?: string;

  /** Exclusive upper bound on the time recorded (ISO 8601). */
  @Omittable()
  @IsISO8601({ strict: true })
  to?: string;

  @PageLimit(500)
  limit?: number;

  @PageCursor()
  cursor?: string;
}
