import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { field } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';

/** An image reference as `docker run` takes it. */
export const TestImage = () =>
  field(
    IsString(),
    Matches(/^[a-z0-9][a-z0-9._\-/:@]{0,254}$/, { message: 'image is an image reference' }),
  );

/** The arguments of a test command (run as the container's command, the artifact on stdin). */
export const TestCommand = () =>
  field(
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(64),
    IsString({ each: true }),
    MinLength(1, { each: true }),
    MaxLength(4096, { each: true }),
    Matches(/^[^\0]*$/, { each: true, message: 'command arguments must not contain NUL' }),
  );

export const TestTimeLimit = () => field(IsInt(), Min(10), Max(3600));

export class TestBackupRestoreInput {
  @IsUUID()
  backupId!: string;

  /** The image the test runs in; left out: the schedule's test, or for a volume, the helper's. */
  @Omittable()
  @TestImage()
  image?: string;

  /** The test command, with the backup on its standard input; e.g. `["pg_restore", "--list"]`. */
  @Omittable()
  @TestCommand()
  command?: string[];

  /** Seconds before the test is stopped and fails; default 1800. */
  @Omittable()
  @TestTimeLimit()
  timeLimitSeconds?: number;
}
