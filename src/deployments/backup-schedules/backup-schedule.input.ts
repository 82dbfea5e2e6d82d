import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsInt,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { badRequest } from '../../common/app-error.js';
import { field } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import type { OffsiteCopy } from '../../events/backup-schedules.events.js';
import { ContainerCommand, CronSchedule, TimeZone } from '../deployment-fields.js';

/** A directory path on a server: letters, digits, `._-` between slashes, no `..`. */
const DIRECTORY = /^(?!.*(^|\/)\.\.(\/|$))\/?[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/;

/** Where copies go: `serverId` and `directory` (SFTP), or `s3TargetId` (an S3 bucket). */
export class OffsiteCopyInput {
  /** A registered server (its host key approved) the copies are written to over SFTP. */
  @Omittable()
  @IsUUID()
  serverId?: string;

  /** Where on it: copies go to `<directory>/<serviceId>/<backupId>.bak`. */
  @Omittable()
  @IsString()
  @MaxLength(200)
  @Matches(DIRECTORY, { message: 'directory is a path of letters, digits and ._- without ..' })
  directory?: string;

  /** Or an S3 target (see configureS3Target): copies go to `<prefix><serviceId>/<backupId>.bak`. */
  @Omittable()
  @Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, { message: 's3TargetId is an S3 target id' })
  s3TargetId?: string;
}

/** The place an input names: a server and its directory, or an S3 target; never both. */
export function offsiteOf(input: OffsiteCopyInput, path: string): OffsiteCopy {
  if (
    input.s3TargetId !== undefined &&
    input.serverId === undefined &&
    input.directory === undefined
  ) {
    return { s3TargetId: input.s3TargetId };
  }
  if (
    input.s3TargetId === undefined &&
    input.serverId !== undefined &&
    input.directory !== undefined
  ) {
    return { serverId: input.serverId, directory: input.directory };
  }
  throw badRequest('name a server and its directory, or an S3 target', [
    { path, message: 'serverId with directory, or s3TargetId alone' },
  ]);
}

/** An image reference as `docker run` takes it. */
export const TestImage = () =>
  field(
    IsString(),
    Matches(/^[a-z0-9][a-z0-9._\-/:@]{0,254}$/, { message: 'image is an image reference' }),
  );

/** Seconds before a restore test is stopped and fails. */
export const TestTimeLimit = () => field(IsInt(), Min(10), Max(3600));

/** A test restore after each scheduled backup (see testBackupRestore). */
export class RestoreTestInput {
  /** The image the test runs in; with `command`, or neither (a volume's tar is unpacked). */
  @Omittable()
  @TestImage()
  image?: string;

  /** The test command, the backup on its standard input; exit 0 passes. */
  @Omittable()
  @ContainerCommand()
  command?: string[];

  /** Seconds before a test is stopped and fails; default 1800. */
  @Omittable()
  @TestTimeLimit()
  timeLimitSeconds?: number;
}

export class SetBackupScheduleInput {
  @IsUUID()
  serviceId!: string;

  /** Cron: `minute hour day-of-month month day-of-week`, or `@daily` and the like. */
  @CronSchedule()
  schedule!: string;

  /** The IANA time zone the schedule (and retention's days and weeks) is read in; default UTC. */
  @TimeZone()
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

  /** Run the service's backup command; default: when it defines one. */
  @Omittable()
  @IsBoolean()
  command?: boolean;

  /** Named volumes of the compose file to tar too, each its own backup. */
  @Omittable()
  @IsArray()
  @ArrayMaxSize(10)
  @ArrayUnique()
  @Matches(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/, { each: true, message: 'volumes are volume names' })
  volumes?: string[];

  /** Restore each scheduled backup into a scratch container and record how it went. */
  @Omittable()
  @ValidateNested()
  @Type(() => RestoreTestInput)
  restoreTest?: RestoreTestInput;

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
