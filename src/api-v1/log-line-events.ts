import type { MessageEvent } from '@nestjs/common';
import { Observable } from 'rxjs';
import type {
  DeploymentLogFollower,
  StatusOf,
} from '../deployments/log-stream/deployment-log-follower.js';
import { endEvent } from './sse-events.js';

/**
 * A log's lines as server-sent events, `event: line` with `id:` the line number, then
 * `event: end` with the final status and the last line's number: a deployment's, or a job run's
 * (`statusOf` reads the run's status instead).
 */
export function logLineEvents(
  follower: DeploymentLogFollower,
  logId: string,
  from: number,
  statusOf?: StatusOf,
): Observable<MessageEvent> {
  return new Observable<MessageEvent>((subscriber) =>
    follower.follow(
      logId,
      from,
      {
        lines: (lines) => {
          for (const { line, step, stream, text, at } of lines) {
            subscriber.next({
              id: String(line),
              type: 'line',
              data: JSON.stringify({ line, step, stream, text, at }),
            });
          }
        },
        end: (status, lastLine) => {
          subscriber.next(endEvent({ status, lastLine }));
          subscriber.complete();
        },
        error: (error) => subscriber.error(error),
      },
      statusOf,
    ),
  );
}
