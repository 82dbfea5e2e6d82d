import { Controller, Inject, Req, Sse, SseSignal, type MessageEvent } from '@nestjs/common';
import type { Request } from 'express';
import { EMPTY, type Observable } from 'rxjs';
import { CredentialWatch } from '../access/credential-watch.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeploymentLookup } from '../deployments/deployment-lookup.js';
import { DeploymentLogFollower } from '../deployments/log-stream/deployment-log-follower.js';
import type { RequestContext } from '../kernel/request-context.js';
import { RouteAccess, type RouteAccessDeclaration } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { inputPart } from '../rpc/pipeline/call-target.js';
import { DeploymentLogStreamQuery, IdParams } from './route-inputs.dto.js';
import {
  answeredEnded,
  LAST_EVENT_ID,
  resumeAfter,
  MAX_PENDING_EVENT_CHARS,
  untilCredentialEnds,
  withHeartbeat,
} from './sse-events.js';
import { logLineEvents } from './log-line-events.js';

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
  constructor(
    private readonly follower: DeploymentLogFollower,
    private readonly lookup: DeploymentLookup,
    private readonly watch: CredentialWatch,
    private readonly pipeline: CallPipeline,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
    if (answeredEnded(req)) return Promise.resolve(EMPTY);
    return this.pipeline.run(
      req,
      [inputPart(IdParams, () => req.params), inputPart(DeploymentLogStreamQuery, () => req.query)],
      ([{ id }, { after }], ctx) => {
        return this.follow(id, resumeAfter(req, after), ctx, lifetime);
      },
    );
  }

  private async follow(
    id: string,
    from: number,
    ctx: RequestContext,
    lifetime: AbortSignal,
  ): Promise<Observable<MessageEvent>> {
    await this.lookup.deployment(id);
    const events = logLineEvents(this.follower, id, from);
    const lease = this.watch.watch(ctx, [LOG_STREAM], lifetime);
    return withHeartbeat(untilCredentialEnds(events, lease), this.config.streams.heartbeatMs);
  }
}
