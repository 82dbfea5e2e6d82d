import { Controller, Inject, Req, Sse, SseSignal, type MessageEvent } from '@nestjs/common';
import type { Request } from 'express';
import { IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { EMPTY, type Observable } from 'rxjs';
import type { JobRunDoc } from '../../projections/scheduled-jobs.projection.js';
import { CredentialWatch } from '../access/credential-watch.js';
import { notFound } from '../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeploymentLogFollower } from '../deployments/log-stream/deployment-log-follower.js';
import type { RequestContext } from '../kernel/request-context.js';
import { RouteAccess, type RouteAccessDeclaration } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { inputPart } from '../rpc/pipeline/call-target.js';
import { DeploymentLogStreamQuery } from './route-inputs.dto.js';
import {
  answeredEnded,
  LAST_EVENT_ID,
  resumeAfter,
  MAX_PENDING_EVENT_CHARS,
  untilCredentialEnds,
  withHeartbeat,
} from './sse-events.js';
import { logLineEvents } from './log-line-events.js';

export class JobRunParams {
  @IsUUID()
  jobId!: string;

  /** `<jobId>@<time>` (scheduled) or `<jobId>@manual-<id>`. */
  @IsString()
  @MaxLength(128)
  @Matches(/^[0-9a-f-]{36}@[A-Za-z0-9-]{1,40}$/, { message: 'runId is a run id of the job' })
  runId!: string;
}

const RUN_LOG_STREAM = {
  auth: 'guarded',
  name: 'GET /api/v1/jobs/:jobId/runs/:runId/logs/stream',
  project: { job: 'jobId' },
  roles: EVERYONE,
  scopes: ['logs:read'],
  summary:
    "Follows a scheduled job run's output lines as server-sent events (resume with Last-Event-ID or ?after=), then an end event with the run's final status, or with the reason when the caller's credential ends first.",
  params: JobRunParams,
  query: DeploymentLogStreamQuery,
  headers: [LAST_EVENT_ID],
} satisfies RouteAccessDeclaration;

/** A job run's output, streamed like a deployment's (the same events, the same end). */
@Controller('api/v1/jobs')
export class JobRunLogsController {
  constructor(
    private readonly follower: DeploymentLogFollower,
    private readonly watch: CredentialWatch,
    private readonly pipeline: CallPipeline,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Sse(':jobId/runs/:runId/logs/stream', { maxPendingDataLength: MAX_PENDING_EVENT_CHARS })
  @RouteAccess(RUN_LOG_STREAM)
  stream(
    @Req() req: Request,
    @SseSignal() lifetime: AbortSignal,
  ): Promise<Observable<MessageEvent>> {
    if (answeredEnded(req)) return Promise.resolve(EMPTY);
    return this.pipeline.run(
      req,
      [
        inputPart(JobRunParams, () => req.params),
        inputPart(DeploymentLogStreamQuery, () => req.query),
      ],
      ([{ jobId, runId }, { after }], ctx) => {
        return this.follow(jobId, runId, resumeAfter(req, after), ctx, lifetime);
      },
    );
  }

  private async status(jobId: string, runId: string): Promise<string> {
    const run = await this.reads.collection<JobRunDoc>('job_runs').get(runId);
    if (!run || run.jobId !== jobId) throw notFound('No such run of this job');
    return run.status;
  }

  private async follow(
    jobId: string,
    runId: string,
    from: number,
    ctx: RequestContext,
    lifetime: AbortSignal,
  ): Promise<Observable<MessageEvent>> {
    await this.status(jobId, runId);
    const events = logLineEvents(this.follower, runId, from, () => this.status(jobId, runId));
    const lease = this.watch.watch(ctx, [RUN_LOG_STREAM], lifetime);
    return withHeartbeat(untilCredentialEnds(events, lease), this.config.streams.heartbeatMs);
  }
}
