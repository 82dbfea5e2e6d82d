import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { BackupScheduleDoc } from '../../../projections/backup-schedules.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type DocFields, type ReadStore } from '../../readstore/read-store.port.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { nextTime } from '../jobs/cron-schedule.js';
import { BackupScheduleServiceInput } from './backup-schedule.input.js';

export type BackupScheduleView = Omit<DocFields<BackupScheduleDoc>, 'id'> & {
  serviceId: string;
  /** When the schedule next comes due; null while it is disabled. */
  nextRunAt: string | null;
};

export class BackupSchedule extends ProcedureQuery<
  BackupScheduleServiceInput,
  { schedule: BackupScheduleView | null }
> {}

@Procedure.read(BackupSchedule, {
  name: 'backupSchedule',
  roles: EVERYONE,
  scopes: ['service:read'],
  input: BackupScheduleServiceInput,
  description:
    'A service’s backup schedule and retention, its last scheduled backup and when the next is due; null when it has none.',
  project: { service: 'serviceId' },
})
export class BackupScheduleHandler implements IQueryHandler<BackupSchedule> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input }: BackupSchedule) {
    await this.lookup.service(input.serviceId);
    const doc = await this.reads
      .collection<BackupScheduleDoc>('backup_schedules')
      .get(input.serviceId);
    if (!doc) return { schedule: null };
    const { id, ...schedule } = doc;
    const nextRunAt = schedule.enabled
      ? (await nextTime(schedule.schedule, schedule.timezone, this.clock.now())).toISOString()
      : null;
    return { schedule: { serviceId: id, ...schedule, nextRunAt } };
  }
}
