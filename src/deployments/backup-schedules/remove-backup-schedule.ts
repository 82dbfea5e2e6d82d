import { backupScheduleStream } from '../../events/backup-schedules.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { decides } from '../../storage/deciding-handler.js';
import { backupScheduleDecider } from './backup-schedule.decider.js';
import { BackupScheduleServiceInput } from './backup-schedule.input.js';

export class RemoveBackupSchedule extends ProcedureCommand<
  BackupScheduleServiceInput,
  { serviceId: string; removed: true }
> {}

@Procedure.command(RemoveBackupSchedule, {
  name: 'removeBackupSchedule',
  roles: DEPLOYERS,
  scopes: ['backup:write'],
  input: BackupScheduleServiceInput,
  description:
    'Stops a service’s scheduled backups; the backups taken stay, and retention deletes nothing more.',
  project: { service: 'serviceId' },
})
export class RemoveBackupScheduleHandler extends decides(backupScheduleDecider).removes(
  RemoveBackupSchedule,
  'serviceId',
  backupScheduleStream,
) {}
