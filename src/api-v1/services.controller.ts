import { Controller, Get, Inject, Req, Sse, type MessageEvent } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { RouteAccess } from '../kernel/route-access.js';
import { routeInput } from '../kernel/route-input.js';
import { EVERYONE } from '../kernel/roles.js';
import { ServiceObserver } from '../runner/observe/service-observer.js';
import { IdParams, ServiceLogStreamQuery } from './route-inputs.dto.js';
import { MAX_PENDING_EVENT_CHARS, withHeartbeat } from './sse-events.js';

const DEFAULT_TAIL = 100;
const DEFAULT_SECONDS = 300;

@Controller('api/v1/services')
export class ServicesController {
  constructor(
    private readonly observer: ServiceObserver,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':id/status')
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/services/:id/status',
    roles: EVERYONE,
    scopes: ['diagnostics:read'],
    summary:
      "The service's containers as the server reports them now (docker compose ps + inspect): state, health, restarts, published ports, image digest.",
    params: IdParams,
  })
  async status(@Req() req: Request) {
    const { id } = await routeInput(IdParams, req.params);
    return this.observer.status(id);
  }

  @Get(':id/stats')
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/services/:id/stats',
    roles: EVERYONE,
    scopes: ['diagnostics:read'],
    summary:
      "CPU, memory, network and block I/O of the service's running containers (docker stats --no-stream).",
    params: IdParams,
  })
  async stats(@Req() req: Request) {
    const { id } = await routeInput(IdParams, req.params);
    return this.observer.stats(id);
  }

  /**
   * The containers' output as server-sent events (`docker compose logs -f` over SSH): the last
   * `tail` lines, then new ones for at most `seconds`; closing the stream stops the command.
   */
  @Sse(':id/logs/stream', { maxPendingDataLength: MAX_PENDING_EVENT_CHARS })
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/services/:id/logs/stream',
    roles: EVERYONE,
    scopes: ['logs:read'],
    summary:
      "Follows the service's container logs as server-sent events: the last `tail` lines (0-5000, default 100), then new ones for `seconds` (1-3600, default 300) unless `follow=false`, then an end event.",
    params: IdParams,
    query: ServiceLogStreamQuery,
  })
  async logs(@Req() req: Request): Promise<Observable<MessageEvent>> {
    const { id } = await routeInput(IdParams, req.params);
    const query = await routeInput(ServiceLogStreamQuery, req.query);
    const tail = query.tail ?? DEFAULT_TAIL;
    const seconds = query.seconds ?? DEFAULT_SECONDS;
    await this.observer.target(id);
    const events = new Observable<MessageEvent>((subscriber) => {
      const stop = new AbortController();
      let line = 0;
      this.observer
        .followLogs(id, {
          tail,
          seconds,
          follow: query.follow ?? true,
          signal: stop.signal,
          onLine: (stream, text) => {
            line += 1;
            subscriber.next({
              id: String(line),
              type: 'line',
              data: JSON.stringify({ line, stream, text: text.slice(0, 8192) }),
            });
          },
        })
        .then(
          () => {
            subscriber.next({ type: 'end', id: String(line), data: JSON.stringify({ line }) });
            subscriber.complete();
          },
          (error: unknown) => subscriber.error(error),
        );
      return () => stop.abort();
    });
    return withHeartbeat(events, this.config.streams.heartbeatMs);
  }
}
