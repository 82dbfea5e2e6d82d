import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { JobRunDoc, ScheduledJobDoc } from '../../../projections/scheduled-jobs.projection.js';
import { AppError, conflict } from '../../common/app-error.js';
import { errorForLog } from '../../common/log-text.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { jobRunDecider } from '../../deployments/jobs/job-run.decider.js';
import {
  jobRunStream,
  scheduledRunId,
  type ScheduledJobSettings,
} from '../../events/jobs.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { ServerSessions } from '../server-sessions.js';
import { JobExecutor, jobContainerName } from './job-executor.js';

const logger = new Logger('Jobs');

/** A job's settings from its read-model document (what the scheduler lists). */
export function settingsOf(job: ScheduledJobDoc): ScheduledJobSettings {
  return {
    jobId: job.id,
    serviceId: job.serviceId,
    name: job.name,
    schedule: job.schedule,
    timezone: job.timezone,
    composeService: job.composeService,
    command: job.command,
    timeLimitSeconds: job.timeLimitSeconds,
    overlap: job.overlap,
    enabled: job.enabled,
  };
}

/**
 * Starts job runs: claims the run on its own stream (a scheduled time once, whichever process
 * gets there first), from the service's current deployment, or records why it was skipped; then
 * runs it in the background. A run of a time already claimed starts nothing.
 */
@Injectable()
export class JobStarter implements OnApplicationShutdown {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
    private readonly executor: JobExecutor,
    private readonly sessions: ServerSessions,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.running);
  }

  /** The run the schedule made due at `at`; null when another process claimed it. */
  async scheduled(
    job: ScheduledJobSettings,
    at: Date,
    stillRunning: number,
    ctx: RequestContext,
  ): Promise<string | null> {
    const runId = scheduledRunId(job.jobId, at);
    const skip = async (reason: 'overlap' | 'no-deployment') => {
      await this.claim(
        runId,
        {
          kind: 'skip',
          skip: {
            jobId: job.jobId,
            serviceId: job.serviceId,
            scheduledFor: at.toISOString(),
            reason,
          },
        },
        ctx,
      );
      return null;
    };
    if (job.overlap === 'forbid' && stillRunning > 0) return skip('overlap');
    const deployment = await this.currentDeployment(job.serviceId);
    if (!deployment) return skip('no-deployment');
    if (job.overlap === 'replace' && stillRunning > 0) await this.replaceRunning(job, ctx);
    return this.start(runId, job, deployment, at.toISOString(), ctx);
  }

  /** A run asked for now; refused when the job's overlap policy or the service forbids it. */
  async manual(
    job: ScheduledJobSettings,
    runId: string,
    stillRunning: number,
    ctx: RequestContext,
  ) {
    if (job.overlap === 'forbid' && stillRunning > 0) {
      throw conflict('A run of this job is still running (overlap: forbid)');
    }
    const deployment = await this.currentDeployment(job.serviceId);
    if (!deployment) throw conflict('The service has no deployment to run the job from');
    if (job.overlap === 'replace' && stillRunning > 0) await this.replaceRunning(job, ctx);
    const started = await this.start(runId, job, deployment, null, ctx);
    if (!started) throw conflict('This run is already claimed');
    return started;
  }

  /**
   * overlap `replace`: each run of the job still running is failed (`replaced`) first, so the
   * runner executing it (in this process or another) records nothing more, then its container
   * is removed from the server, which ends it.
   */
  private async replaceRunning(job: ScheduledJobSettings, ctx: RequestContext): Promise<void> {
    const running = await readAll(this.reads.collection<JobRunDoc>('job_runs'), {
      jobId: job.jobId,
      status: 'running',
    });
    for (const run of running) {
      const replaced = await this.claim(
        run.id,
        {
          kind: 'fail',
          runId: run.id,
          reason: 'replaced',
          exitCode: null,
          detail: 'stopped: a newer run replaced it (overlap: replace)',
        },
        ctx,
      );
      if (!replaced || !run.containerName || !run.deploymentId) continue;
      const deployment = await this.lookup.deployment(run.deploymentId);
      const session = await this.sessions.open(await this.lookup.server(deployment.serverId));
      try {
        await session.exec(['docker', 'rm', '-f', run.containerName], { onLine: () => undefined });
      } finally {
        session.close();
      }
    }
  }

  private async currentDeployment(serviceId: string) {
    const service = await this.lookup.service(serviceId);
    if (service.status !== 'active' || !service.currentDeploymentId) return null;
    return this.lookup.deployment(service.currentDeploymentId);
  }

  private async start(
    runId: string,
    job: ScheduledJobSettings,
    deployment: Awaited<ReturnType<DeploymentLookup['deployment']>>,
    scheduledFor: string | null,
    ctx: RequestContext,
  ): Promise<string | null> {
    const containerName = jobContainerName(deployment, job.name, runId);
    const claimed = await this.claim(
      runId,
      {
        kind: 'start',
        run: {
          runId,
          jobId: job.jobId,
          serviceId: job.serviceId,
          deploymentId: deployment.id,
          trigger: scheduledFor ? 'schedule' : 'manual',
          scheduledFor,
          containerName,
        },
      },
      ctx,
    );
    if (!claimed) return null;
    const execution = this.executor
      .execute({ runId, job, deployment, containerName }, ctx)
      .catch((error: unknown) => logger.error(`Job run ${runId} failed to run`, errorForLog(error)))
      .finally(() => this.running.delete(execution));
    this.running.add(execution);
    return runId;
  }

  /** Claims the run's stream; false when it was claimed already. */
  private async claim(
    runId: string,
    command: Parameters<typeof jobRunDecider.decide>[0],
    ctx: RequestContext,
  ): Promise<boolean> {
    try {
      await this.runner.run(jobRunStream(runId), jobRunDecider, command, ctx);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') return false;
      throw error;
    }
  }
}
