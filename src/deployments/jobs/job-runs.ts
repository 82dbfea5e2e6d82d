import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsString, MaxLength } from 'class-validator';
import type { JobRunDoc, ScheduledJobDoc } from '../../../projections/scheduled-jobs.projection.js';
import { notFound } from '../../common/app-error.js';
import { PageLimit } from '../../common/field-rules.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type DocFields, type ReadStore } from '../../readstore/read-store.port.js';
import { DeploymentLogStore, type LogPage } from '../deployment-log-store.js';
import { AfterLine, readLogLines } from '../queries/log-lines.js';
import { JobIdInput, JobRunsInput } from './job.input.js';

export type JobRunView = Omit<DocFields<JobRunDoc>, 'id'> & { runId: string };

export class JobRuns extends ProcedureQuery<
  JobRunsInput,
  { runs: JobRunView[]; nextCursor: string | null }
> {}

@Procedure.read(JobRuns, {
  name: 'jobRuns',
  roles: EVERYONE,
  scopes: ['deploy:read'],
  input: JobRunsInput,
  description:
    'The runs of a scheduled job, newest first: trigger, scheduled time, status, exit code, why it failed or was skipped.',
  project: { job: 'jobId' },
})
export class JobRunsHandler implements IQueryHandler<JobRuns> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ input }: JobRuns) {
    const job = await this.reads.collection<ScheduledJobDoc>('scheduled_jobs').get(input.jobId);
    if (!job) throw notFound('No such scheduled job');
    const page = await this.reads
      .collection<JobRunDoc>('job_runs')
      .find(
        { jobId: input.jobId },
        { sort: { startedAt: -1 }, limit: input.limit ?? 20, cursor: input.cursor },
      );
    return {
      runs: page.items.map(({ id, ...run }) => ({ runId: id, ...run })),
      nextCursor: page.nextCursor,
    };
  }
}

export class JobRunLogsInput extends JobIdInput {
  @IsString()
  @MaxLength(128)
  runId!: string;

  @AfterLine()
  afterLine?: number;

  @PageLimit(1000)
  limit?: number;
}

export class JobRunLogs extends ProcedureQuery<JobRunLogsInput, LogPage> {}

/** A run's output, kept like a deployment's (one line per document, numbered). */
@Procedure.read(JobRunLogs, {
  name: 'jobRunLogs',
  roles: EVERYONE,
  scopes: ['deploy:read'],
  input: JobRunLogsInput,
  description: 'Output lines of a job run, after a line number, in order.',
  project: { job: 'jobId' },
})
export class JobRunLogsHandler implements IQueryHandler<JobRunLogs> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly logs: DeploymentLogStore,
  ) {}

  async execute({ input }: JobRunLogs): Promise<LogPage> {
    const run = await this.reads.collection<JobRunDoc>('job_runs').get(input.runId);
    if (!run || run.jobId !== input.jobId) throw notFound('No such run of this job');
    return readLogLines(this.logs, input.runId, input);
  }
}
