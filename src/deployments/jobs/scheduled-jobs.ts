import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { ScheduledJobDoc } from '../../../projections/scheduled-jobs.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type DocFields, type ReadStore } from '../../readstore/read-store.port.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { nextTime } from './cron-schedule.js';
import { ServiceJobsInput } from './job.input.js';

export type ScheduledJobView = Omit<DocFields<ScheduledJobDoc>, 'id' | 'removedAt'> & {
  jobId: string;
  /** When the schedule next comes due; null while the job is disabled. */
  nextRunAt: string | null;
};

export class ScheduledJobs extends ProcedureQuery<ServiceJobsInput, { jobs: ScheduledJobView[] }> {}

/** A service has few jobs: the list is not paged. */
const MAX_JOBS = 200;

@Procedure.read(ScheduledJobs, {
  name: 'scheduledJobs',
  roles: EVERYONE,
  scopes: ['service:read'],
  input: ServiceJobsInput,
  description:
    'A service’s scheduled jobs: schedule, command, limits, the last run and when the next is due.',
  project: { service: 'serviceId' },
})
export class ScheduledJobsHandler implements IQueryHandler<ScheduledJobs> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input }: ScheduledJobs): Promise<{ jobs: ScheduledJobView[] }> {
    await this.lookup.service(input.serviceId);
    const { items } = await this.reads
      .collection<ScheduledJobDoc>('scheduled_jobs')
      .find(
        { serviceId: input.serviceId, removedAt: null },
        { sort: { name: 1 }, limit: MAX_JOBS },
      );
    const now = this.clock.now();
    const jobs: ScheduledJobView[] = [];
    for (const { id, removedAt: _removed, ...job } of items) {
      const next = job.enabled ? await nextTime(job.schedule, job.timezone, now) : null;
      jobs.push({ jobId: id, ...job, nextRunAt: next?.toISOString() ?? null });
    }
    return { jobs };
  }
}
