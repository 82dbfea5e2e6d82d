import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsUUID, Max, Min } from 'class-validator';
import { Omittable } from '../common/omittable.js';

/** A query string number: digits only, else left as the string for the validator to refuse. */
export const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;

/** `{id}` of a deployment, service or server: a UUID. */
export class IdParams {
  @IsUUID()
  id!: string;
}

/** Where a deployment log stream starts; a `Last-Event-ID` header takes precedence. */
export class DeploymentLogStreamQuery {
  @Omittable()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  after?: number;
}

/** A page of a list: `?limit=` 1-100 (default 50). */
export class LimitQuery {
  @Omittable()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/** How much of a service's container log to send first, and how long to follow it. */
export class ServiceLogStreamQuery {
  @Omittable()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(5000)
  tail?: number;

  @Omittable()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  seconds?: number;

  /** `false`: the last `tail` lines only, then the end event (default `true`). */
  @Omittable()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean()
  follow?: boolean;
}
