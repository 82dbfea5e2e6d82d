import type { MessageEvent, Type } from '@nestjs/common';
import type { Request } from 'express';
import { EMPTY, type Observable } from 'rxjs';
import type { AccessTarget } from '../access/access.service.js';
import type { CredentialWatch } from '../access/credential-watch.js';
import type { AppConfig } from '../config/app-config.js';
import type {
  DeploymentLogFollower,
  StatusOf,
} from '../deployments/log-stream/deployment-log-follower.js';
import type { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { inputPart } from '../rpc/pipeline/call-target.js';
import { logLineEvents } from './log-line-events.js';
import { DeploymentLogStreamQuery } from './route-inputs.dto.js';
import { answeredEnded, resumeAfter, untilCredentialEnds, withHeartbeat } from './sse-events.js';

/** What a log stream route follows a log with. */
export interface LogStreaming {
  follower: DeploymentLogFollower;
  watch: CredentialWatch;
  pipeline: CallPipeline;
  config: AppConfig;
}

/** The log a route's path parameters name, once found: its id, and how its status is read. */
export interface FollowedLog {
  logId: string;
  /** A job run's status (see logLineEvents); a deployment's is read by the follower itself. */
  statusOf?: StatusOf;
}

/**
 * A log stream route (a deployment's, a job run's): its path parameters and `?after=` validated,
 * the log found by `find` (which refuses what does not exist), then its lines as server-sent
 * events from the resume point on (see logLineEvents), with heartbeats, until the log's end or
 * the caller's credential's. A reconnect after the end is `204`.
 */
export function streamLog<P extends object>(
  streaming: LogStreaming,
  req: Request,
  lifetime: AbortSignal,
  route: AccessTarget & { params: Type<P> },
  find: (params: P) => Promise<FollowedLog>,
): Promise<Observable<MessageEvent>> {
  if (answeredEnded(req)) return Promise.resolve(EMPTY);
  return streaming.pipeline.run(
    req,
    [
      inputPart(route.params, () => req.params),
      inputPart(DeploymentLogStreamQuery, () => req.query),
    ],
    async ([params, { after }], ctx) => {
      const from = resumeAfter(req, after);
      const { logId, statusOf } = await find(params);
      const events = logLineEvents(streaming.follower, logId, from, statusOf);
      // Judged again in the log's project by the same fields as the call was (see CallPipeline).
      const lease = streaming.watch.watch(ctx, [route], lifetime, { ...params, after });
      return withHeartbeat(
        untilCredentialEnds(events, lease),
        streaming.config.streams.heartbeatMs,
      );
    },
  );
}
