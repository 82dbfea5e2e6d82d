import { Controller, Inject, Req, Sse, SseSignal, type MessageEvent } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { CredentialWatch } from '../access/credential-watch.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeploymentLookup } from '../deployments/deployment-lookup.js';
import { DeploymentLogFollower } from '../deployments/log-stream/deployment-log-follower.js';
import { RouteAccess, type RouteAccessDeclaration } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { streamLog, type LogStreaming } from './log-stream.js';
import { DeploymentLogStreamQuery, IdParams } from './route-inputs.dto.js';
import { LAST_EVENT_ID, MAX_PENDING_EVENT_CHARS } from './sse-events.js';

const LOG_STREAM = {
  auth: 'guarded',
  name: 'GET /api/v1/deployments/:id/logs/stream',
  project: { deployment: 'id' },
  roles: EVERYONE,
  scopes: ['logs:read'],
  summary:
    "Follows a deployment's output lines as server-sent events (resume with Last-Event-ID or ?after=), then an end event with its final status, or with the reason when the caller's credential ends first.",
  params: IdParams,
  query: DeploymentLogStreamQuery,
  headers: [LAST_EVENT_ID],
} satisfies RouteAccessDeclaration;

@Controller('api/v1/deployments')
export class DeploymentLogsController {
  private readonly streaming: LogStreaming;

  constructor(
    follower: DeploymentLogFollower,
    private readonly lookup: DeploymentLookup,
    watch: CredentialWatch,
    pipeline: CallPipeline,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.streaming = { follower, watch, pipeline, config };
  }

  /**
   * A deployment's output as server-sent events, pushed as the runner stores it: `event: line`
   * with `id:` the line number, then `event: end` (id `end`) with the final status and the last
   * line's number, and the stream closes; a reconnect after it is `204`.
   * Should the caller's credential end first, the end event says why instead (`{reason, code}`).
   */
  @Sse(':id/logs/stream', { maxPendingDataLength: MAX_PENDING_EVENT_CHARS })
  @RouteAccess(LOG_STREAM)
  stream(
    @Req() req: Request,
    @SseSignal() lifetime: AbortSignal,
  ): Promise<Observable<MessageEvent>> {
    return streamLog(this.streaming, req, lifetime, LOG_STREAM, async ({ id }) => {
      await this.lookup.deployment(id);
      return { logId: id };
    });
  }
}
