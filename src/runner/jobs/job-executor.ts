import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { AppError } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { errorForLog } from '../../common/log-text.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLogStore } from '../../deployments/deployment-log-store.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { jobRunDecider } from '../../deployments/jobs/job-run.decider.js';
import {
  jobRunStream,
  type JobRunFailure,
  type ScheduledJobSettings,
} from '../../events/jobs.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { composeProject } from '../../deployments/compose-project.js';
import { deploymentCompose, deploymentDir } from '../deployment-steps.js';
import { LogWriter } from '../log-writer.js';
import { ServerSessions } from '../server-sessions.js';
import type { SshSession } from '../ssh-session.js';

const logger = new Logger('Jobs');
const STEP = 'job';

/** A run that has started: what it runs, from which deployment. */
export interface StartedRun {
  runId: string;
  job: ScheduledJobSettings;
  deployment: DeploymentDoc;
  containerName: string;
}

/** The container a run's command runs in: the compose project's name, the job's, and the run's. */
export function jobContainerName(deployment: DeploymentDoc, jobName: string, runId: string) {
  const project = composeProject(deployment.serviceName, deployment.environment);
  const run = createHash('sha256').update(runId).digest('hex').slice(0, 12);
  return `${project}-job-${jobName}-${run}`;
}

class RunFailure extends Error {
  constructor(
    readonly reason: JobRunFailure,
    message: string,
    readonly exitCode: number | null = null,
  ) {
    super(message);
  }
}

/**
 * Runs a started job run on the service's server, in a one-shot container of the job's compose
 * service made from the deployment's frozen files (`docker compose run -d` in its directory):
 * the container's output goes to the run's log as it is written, the time limit stops it
 * (`docker kill`), its exit code decides the outcome, and the container is removed after.
 */
@Injectable()
export class JobExecutor {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
    private readonly sessions: ServerSessions,
    private readonly logs: DeploymentLogStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(run: StartedRun, ctx: RequestContext): Promise<void> {
    const log = new LogWriter(this.logs, run.runId, this.clock);
    let session: SshSession | null = null;
    let outcome: RunFailure | null = null;
    try {
      const server = await this.lookup.server(run.deployment.serverId);
      if (!server.hostKeyApproved) {
        throw new RunFailure('could-not-start', `the host key of ${server.name} is not approved`);
      }
      session = await this.sessions.open(server).catch((error: unknown) => {
        throw new RunFailure(
          'could-not-start',
          `could not connect to ${server.name}: ${error instanceof Error ? error.message : 'failed'}`,
        );
      });
      await this.runIn(session, run, log);
    } catch (error) {
      outcome =
        error instanceof RunFailure
          ? error
          : new RunFailure('could-not-start', error instanceof Error ? error.message : 'failed');
    } finally {
      if (session) {
        await session
          .exec(['docker', 'rm', '-f', run.containerName], { onLine: () => undefined })
          .catch(() => undefined);
        session.close();
      }
      await log.flush();
    }
    await this.record(run.runId, outcome, ctx);
  }

  private async runIn(session: SshSession, run: StartedRun, log: LogWriter): Promise<void> {
    const { deployment, job, containerName } = run;
    const dir = deploymentDir(this.config.runner.remoteDir, deployment);
    const compose = deploymentCompose(
      composeProject(deployment.serviceName, deployment.environment),
      dir,
    );
    const errors: string[] = [];
    const started = await session.exec(
      [
        ...compose,
        'run',
        '-d',
        '--no-deps',
        '--name',
        containerName,
        job.composeService,
        ...job.command,
      ],
      { onLine: (stream, text) => (stream === 'stderr' ? errors.push(text) : undefined) },
    );
    if (started.code !== 0) {
      for (const line of errors.slice(-20)) log.write(STEP, 'stderr', line);
      throw new RunFailure(
        'could-not-start',
        `docker compose run exited ${started.code ?? started.signal}`,
      );
    }
    // A newer run may have replaced this one while its container was being made (overlap:
    // replace records the end first, then removes the container, which may not exist yet).
    if ((await this.runner.load(jobRunStream(run.runId), jobRunDecider)).status !== 'running') {
      throw new RunFailure('replaced', 'a newer run replaced it before it started');
    }
    const limit = AbortSignal.timeout(job.timeLimitSeconds * 1000);
    // Ends when the container exits, or at the time limit.
    await session.exec(['docker', 'logs', '--follow', containerName], {
      onLine: (stream, text) => log.write(STEP, stream, text),
      signal: limit,
    });
    if (limit.aborted) {
      await session.exec(['docker', 'kill', containerName], { onLine: () => undefined });
      throw new RunFailure(
        'timed-out',
        `stopped after its time limit of ${job.timeLimitSeconds} s`,
      );
    }
    const exit: string[] = [];
    await session.exec(['docker', 'wait', containerName], {
      onLine: (stream, text) => (stream === 'stdout' ? exit.push(text.trim()) : undefined),
    });
    const code = Number(exit[0]);
    if (!Number.isInteger(code))
      throw new RunFailure('could-not-start', 'the exit code could not be read');
    if (code !== 0) throw new RunFailure('exit-code', `exited with code ${code}`, code);
  }

  private async record(runId: string, failure: RunFailure | null, ctx: RequestContext) {
    try {
      await this.runner.run(
        jobRunStream(runId),
        jobRunDecider,
        failure
          ? {
              kind: 'fail',
              runId,
              reason: failure.reason,
              exitCode: failure.exitCode,
              detail: failure.message.slice(0, 500),
            }
          : { kind: 'succeed', runId },
        ctx,
      );
    } catch (error) {
      // Ended already: a newer run replaced it (overlap: replace), which recorded why.
      if (error instanceof AppError && error.code === 'CONFLICT') return;
      logger.error(`Could not record the end of job run ${runId}`, errorForLog(error));
    }
  }
}
