import { Controller, Sse, type MessageEvent } from '@nestjs/common';
import { interval, map, startWith, type Observable } from 'rxjs';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { RouteAccess } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';

@Controller('api/v1/projections')
export class ProjectionStreamController {
  constructor(private readonly runner: ProjectionRunner) {}

  /** Server-sent events: read-model positions and status, now and every 2 seconds. */
  @Sse('stream')
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/projections/stream',
    roles: EVERYONE,
    scopes: ['deploy:read'],
  })
  stream(): Observable<MessageEvent> {
    return interval(2000).pipe(
      startWith(0),
      map(() => ({
        type: 'projections',
        data: { at: new Date().toISOString(), projections: this.runner.status() },
      })),
    );
  }
}
