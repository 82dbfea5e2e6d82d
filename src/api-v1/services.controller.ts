import { Controller, Get, Inject, Req, Sse, SseSignal, type MessageEvent } from '@nestjs/common';
import type { Request } from 'express';
import { EMPTY, Observable } from 'rxjs';
import { CredentialWatch } from '../access/credential-watch.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { RequestContext } from '../kernel/request-context.js';
import { RouteAccess, type RouteAccessDeclaration } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { inputPart } from '../rpc/pipeline/call-target.js';
import { LogStreamSlots } from '../runner/observe/log-stream-slots.js';
import { ServiceObserver } from '../runner/observe/service-observer.js';
import { IdParams, ServiceLogStreamQuery } from './route-inputs.dto.js';
import { after, lineTime, resumeTime } from './log-line-time.js';
import {
  answeredEnded,
  endEvent,
  LAST_EVENT_ID,
  MAX_PENDING_EVENT_CHARS,
  untilCredentialEnds,
  withHeartbeat,
} from './sse-events.js';

const DEFAULT_TAIL = 100;
const DEFAULT_SECONDS = 300;

const CONTAINER_LOG_STREAM = {
  auth: 'guarded',
  name: 'GET /api/v1/services/:id/logs/stream',
  project: { service: 'id' },
  roles: EVERYONE,
  scopes: ['logs:read'],
  summary:
    "Follows the service's container logs as server-sent events: the last `tail` lines (0-5000, default 100), then new ones for `seconds` (1-3600, default 300) unless `follow=false`, then an end event (with the reason when the caller's credential ends first). Each line's id is its timestamp: Last-Event-ID resumes after it; after the end, 204. A caller and a server may hold a few such streams at once: past that, 429.",
  params: IdParams,
  query: ServiceLogStreamQuery,
  headers: [LAST_EVENT_ID],
} satisfies RouteAccessDeclaration;

@Controller('api/v1/services')
export class ServicesController {
  constructor(
    private readonly observer: ServiceObserver,
    private readonly slots: LogStreamSlots,
    private readonly watch: CredentialWatch,
    private readonly pipeline: CallPipeline,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':id/status')
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/services/:id/status',
    project: { service: 'id' },
    roles: EVERYONE,
    scopes: ['diagnostics:read'],
    summary:
      "The service's containers as the server reports them now (docker compose ps + inspect): state, health, restarts, published ports, image digest.",
    params: IdParams,
  })
  status(@Req() req: Request) {
    return this.pipeline.run(req, [inputPart(IdParams, () => req.params)], ([{ id }]) =>
      this.observer.status(id),
    );
  }

  @Get(':id/stats')
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/services/:id/stats',
    project: { service: 'id' },
    roles: EVERYONE,
    scopes: ['diagnostics:read'],
    summary:
      "CPU, memory, network and block I/O of the service's running containers (docker stats --no-stream).",
    params: IdParams,
  })
  stats(@Req() req: Request) {
    return this.pipeline.run(req, [inputPart(IdParams, () => req.params)], ([{ id }]) =>
      this.observer.stats(id),
    );
  }

  /**
   * The containers' output as server-sent events (`docker compose logs -f` over SSH): the last
   * `tail` lines, then new ones for at most `seconds`; closing the stream stops the command.
   */
  @Sse(':id/logs/stream', { maxPendingDataLength: MAX_PENDING_EVENT_CHARS })
  @RouteAccess(CONTAINER_LOG_STREAM)
  logs(@Req() req: Request, @SseSignal() lifetime: AbortSignal): Promise<Observable<MessageEvent>> {
    if (answeredEnded(req)) return Promise.resolve(EMPTY);
    return this.pipeline.run(
      req,
      [inputPart(IdParams, () => req.params), inputPart(ServiceLogStreamQuery, () => req.query)],
      ([{ id }, query], ctx) =>
        this.follow(id, query, resumeTime(req.headers['last-event-id']), ctx, lifetime),
    );
  }

  /**
   * Each line's id is its timestamp (the last one's, for a line without), so a reconnecting
   * client's `Last-Event-ID` resumes after it (`--since`, lines up to it skipped) rather than
   * replaying the tail; `end` closes the stream for good.
   */
  private async follow(
    id: string,
    query: ServiceLogStreamQuery,
    since: string | null,
    ctx: RequestContext,
    lifetime: AbortSignal,
  ): Promise<Observable<MessageEvent>> {
    const tail = query.tail ?? DEFAULT_TAIL;
    const seconds = query.seconds ?? DEFAULT_SECONDS;
    const { server } = await this.observer.target(id);
    // Released on every end of the response, subscribed or not (see SseSignal).
    const release = this.slots.take(ctx.principal!.id, server.id);
    lifetime.addEventListener('abort', release, { once: true });
    if (lifetime.aborted) release();
    const events = new Observable<MessageEvent>((subscriber) => {
      const stop = new AbortController();
      let line = 0;
      let at = since;
      this.observer
        .followLogs(id, {
          tail,
          seconds,
          since,
          follow: query.follow ?? true,
          signal: stop.signal,
          onLine: (stream, text) => {
            const time = lineTime(text);
            if (since && time && !after(time, since)) return;
            at = time ?? at;
            line += 1;
            subscriber.next({
              id: at ?? String(line),
              type: 'line',
              data: JSON.stringify({ line, stream, text: text.slice(0, 8192) }),
            });
          },
        })
        .then(
          () => {
            subscriber.next(endEvent({ line }));
            subscriber.complete();
          },
          (error: unknown) => subscriber.error(error),
        );
      return () => {
        // Stops the remote command; the slot is free once it is.
        stop.abort();
        release();
      };
    });
    // Judged again in the service's project, as the call was (see CallPipeline).
    const lease = this.watch.watch(ctx, [CONTAINER_LOG_STREAM], lifetime, { id, ...query });
    return withHeartbeat(untilCredentialEnds(events, lease), this.config.streams.heartbeatMs);
  }
}
