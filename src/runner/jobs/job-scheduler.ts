import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JobRunDoc, ScheduledJobDoc } from '../../../projections/scheduled-jobs.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { errorForLog, logText } from '../../common/log-text.js';
import { PeriodicPass } from '../../common/periodic-pass.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { jobRunDecider } from '../../deployments/jobs/job-run.decider.js';
import { jobRunStream } from '../../events/jobs.events.js';
import { systemContext } from '../../kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { dueSchedules, embeddedRunnerPollMs } from '../due-schedules.js';
import { JobStarter, settingsOf } from './job-starter.js';

const logger = new Logger('Jobs');
const MAX_JOBS = 1000;
/** A run still "running" this long past its time limit was left by a runner that stopped. */
const ABANDONED_AFTER_MS = 5 * 60_000;

/**
 * Starts the runs jobs' schedules make due, in the runner's process: every pass reads the
 * enabled jobs and starts, for each, the latest time its schedule came due since the time it
 * last claimed (runs missed while no runner ran are not made up one by one). Each time is
 * claimed on its own stream, so runners in several processes start it once. A pass also fails
 * runs whose runner stopped before it finished them.
 */
@Injectable()
export class JobScheduler extends PeriodicPass {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly starter: JobStarter,
    private readonly runner: DeciderRunner,
  ) {
    super();
  }

  protected override intervalMs(): number {
    return embeddedRunnerPollMs(this.config);
  }

  /** A pass now (tests move their clock, then call it). */
  override async pass(): Promise<void> {
    const now = this.clock.now();
    const jobs = dueSchedules(
      this.reads.collection<ScheduledJobDoc>('scheduled_jobs'),
      { filter: { enabled: true, removedAt: null }, limit: MAX_JOBS, since: (j) => j.definedAt },
      now,
    );
    for await (const { schedule: job, due } of jobs) {
      try {
        await this.starter.scheduled(
          settingsOf(job),
          due,
          job.running,
          systemContext(`scheduler:${job.id}`),
        );
      } catch (error) {
        logger.warn(`Job ${logText(job.name)} could not start: ${errorForLog(error)}`);
      }
    }
    await this.failAbandoned(now);
  }

  private async failAbandoned(now: Date): Promise<void> {
    const { items } = await this.reads
      .collection<JobRunDoc>('job_runs')
      .find({ status: 'running' }, { sort: { startedAt: 1 }, limit: 100 });
    for (const run of items) {
      const job = await this.reads.collection<ScheduledJobDoc>('scheduled_jobs').get(run.jobId);
      const limitMs = (job?.timeLimitSeconds ?? 86_400) * 1000;
      if (now.getTime() - Date.parse(run.startedAt) < limitMs + ABANDONED_AFTER_MS) continue;
      await this.runner
        .run(
          jobRunStream(run.id),
          jobRunDecider,
          {
            kind: 'fail',
            runId: run.id,
            reason: 'abandoned',
            exitCode: null,
            detail: 'no runner finished it: its runner stopped while it ran',
          },
          systemContext(`scheduler:${run.jobId}`),
        )
        .catch(() => undefined);
    }
  }
}
