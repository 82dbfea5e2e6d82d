import { IsUUID } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import {
  TestCommand,
  TestImage,
  TestTimeLimit,
} from '../../deployments/backup-schedules/backup-schedule.input.js';

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
