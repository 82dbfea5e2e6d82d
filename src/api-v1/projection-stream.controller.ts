import { Controller, Req, Sse, SseSignal, type MessageEvent } from '@nestjs/common';
import type { Request } from 'express';
import { interval, map, startWith, type Observable } from 'rxjs';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { CredentialWatch } from '../access/credential-watch.js';
import type { RequestContext } from '../kernel/request-context.js';
import { RouteAccess, type RouteAccessDeclaration } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { untilCredentialEnds } from './sse-events.js';

const PROJECTION_STREAM = {
  auth: 'guarded',
  name: 'GET /api/v1/projections/stream',
  // Read-model positions only: nothing of the team's, so a token limited to projects may wait.
  ownOnly: true,
  roles: EVERYONE,
  scopes: ['deploy:read'],
} satisfies RouteAccessDeclaration;

@Controller('api/v1/projections')
export class ProjectionStreamController {
  constructor(
    private readonly runner: ProjectionRunner,
    private readonly watch: CredentialWatch,
    private readonly pipeline: CallPipeline,
  ) {}

  /**
   * Server-sent events: read-model positions and status, now and every 2 seconds, until the
   * caller's credential ends (then an `end` event with `{reason, code}`).
   */
  @Sse('stream')
  @RouteAccess(PROJECTION_STREAM)
  stream(@Req() req: Request, @SseSignal() lifetime: AbortSignal) {
    return this.pipeline.run(req, [], (_, ctx) => this.positions(ctx, lifetime));
  }

  private positions(ctx: RequestContext, lifetime: AbortSignal): Observable<MessageEvent> {
    const positions = interval(2000).pipe(
      startWith(0),
      map(() => ({
        type: 'projections',
        data: { at: new Date().toISOString(), projections: this.runner.status() },
      })),
    );
    const lease = this.watch.watch(ctx, [PROJECTION_STREAM], lifetime);
    return untilCredentialEnds(positions, lease);
  }
}
