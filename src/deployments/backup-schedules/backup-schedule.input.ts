import {
  IsBoolean,
  IsInt,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Omittable } from '../../common/omittable.js';

export class SetBackupScheduleInput {
  @IsUUID()
  serviceId!: string;

  /** Cron: `minute hour day-of-month month day-of-week`, or `@daily` and the like. */
  @IsString()
  @MinLength(1)
  @MaxLength(120)
  schedule!: string;

  /** The IANA time zone the schedule (and retention's days and weeks) is read in; default UTC. */
  @Omittable()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  /** Keep the newest this many scheduled backups; default 7. */
  @Omittable()
  @IsInt()
  @Min(0)
  @Max(1000)
  keepLast?: number;

  /** Keep the newest backup of each of the last this many days that have one; default 7. */
  @Omittable()
  @IsInt()
  @Min(0)
  @Max(3660)
  keepDaily?: number;

  /** Keep the newest backup of each of the last this many weeks that have one; default 4. */
  @Omittable()
  @IsInt()
  @Min(0)
  @Max(520)
  keepWeekly?: number;

  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class BackupScheduleServiceInput {
  @IsUUID()
  serviceId!: string;
}
