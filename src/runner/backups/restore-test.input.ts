import { IsUUID } from 'class-validator';
import { RestoreTestInput } from '../../deployments/backup-schedules/backup-schedule.input.js';

/**
 * A test restore of one backup, set like a schedule's restore test. Left out, the image and
 * command are the schedule's test or, for a volume, the helper's (its tar unpacked), and the
 * time limit is the schedule's or 1800 seconds.
 */
export class TestBackupRestoreInput extends RestoreTestInput {
  @IsUUID()
  backupId!: string;
}
