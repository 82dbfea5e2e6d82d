import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import type { ScheduledJobDoc } from '../../../projections/scheduled-jobs.projection.js';
import { notFound } from '../../common/app-error.js';
import { JobIdInput } from '../../deployments/jobs/job.input.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { JobStarter, settingsOf } from './job-starter.js';

export class RunScheduledJob extends ProcedureCommand<JobIdInput, { runId: string }> {}

/** Runs a job now, whatever its schedule (and while it is disabled): its run id at once. */
@Procedure.command(RunScheduledJob, {
  name: 'runScheduledJob',
  roles: DEPLOYERS,
  scopes: ['deploy:start'],
  input: JobIdInput,
  description:
    'Runs a scheduled job now, from the service’s current deployment; answers the run id at once (follow it with jobRuns and jobRunLogs).',
  project: { job: 'jobId' },
})
export class RunScheduledJobHandler implements ICommandHandler<RunScheduledJob> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly starter: JobStarter,
  ) {}

  async execute({ input, ctx }: RunScheduledJob) {
    const job = await this.reads.collection<ScheduledJobDoc>('scheduled_jobs').get(input.jobId);
    if (!job || job.removedAt) throw notFound('No such scheduled job');
    const runId = `${job.id}@manual-${randomUUID().slice(0, 8)}`;
    return { runId: await this.starter.manual(settingsOf(job), runId, job.running, ctx) };
  }
}
