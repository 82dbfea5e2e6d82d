import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Omittable } from '../../common/omittable.js';

/** A directory path on a server: letters, digits, `._-` between slashes, no `..`. */
const DIRECTORY = /^(?!.*(^|\/)\.\.(\/|$))\/?[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/;

export class OffsiteCopyInput {
  /** A registered server (its host key approved) the copies are written to over SFTP. */
  @IsUUID()
  serverId!: string;

  /** Where on it: copies go to `<directory>/<serviceId>/<backupId>.bak`. */
  @IsString()
  @MaxLength(200)
  @Matches(DIRECTORY, { message: 'directory is a path of letters, digits and ._- without ..' })
  directory!: string;
}

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

  /** Copy each scheduled backup to another server (and delete the copy with the backup). */
  @Omittable()
  @ValidateNested()
  @Type(() => OffsiteCopyInput)
  offsite?: OffsiteCopyInput;

  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class BackupScheduleServiceInput {
  @IsUUID()
  serviceId!: string;
}

export class CopyBackupInput extends OffsiteCopyInput {
  @IsUUID()
  backupId!: string;
}
