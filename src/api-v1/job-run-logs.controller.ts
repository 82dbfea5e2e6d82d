import { Controller, Inject, Req, Sse, SseSignal, type MessageEvent } from '@nestjs/common';
import type { Request } from 'express';
import { IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import type { Observable } from 'rxjs';
import type { JobRunDoc } from '../../projections/scheduled-jobs.projection.js';
import { CredentialWatch } from '../access/credential-watch.js';
import { notFound } from '../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeploymentLogFollower } from '../deployments/log-stream/deployment-log-follower.js';
import { RouteAccess, type RouteAccessDeclaration } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { streamLog, type LogStreaming } from './log-stream.js';
import { DeploymentLogStreamQuery } from './route-inputs.dto.js';
import { LAST_EVENT_ID, MAX_PENDING_EVENT_CHARS } from './sse-events.js';

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
  private readonly streaming: LogStreaming;

  constructor(
    follower: DeploymentLogFollower,
    watch: CredentialWatch,
    pipeline: CallPipeline,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.streaming = { follower, watch, pipeline, config };
  }

  @Sse(':jobId/runs/:runId/logs/stream', { maxPendingDataLength: MAX_PENDING_EVENT_CHARS })
  @RouteAccess(RUN_LOG_STREAM)
  stream(
    @Req() req: Request,
    @SseSignal() lifetime: AbortSignal,
  ): Promise<Observable<MessageEvent>> {
    return streamLog(this.streaming, req, lifetime, RUN_LOG_STREAM, async ({ jobId, runId }) => {
      await this.status(jobId, runId);
      return { logId: runId, statusOf: () => this.status(jobId, runId) };
    });
  }

  private async status(jobId: string, runId: string): Promise<string> {
    const run = await this.reads.collection<JobRunDoc>('job_runs').get(runId);
    if (!run || run.jobId !== jobId) throw notFound('No such run of this job');
    return run.status;
  }
}
