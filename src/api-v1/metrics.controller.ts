import { Controller, Get, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { Omittable } from '../common/omittable.js';
import { validateInput } from '../kernel/input-validation.js';
import { RouteAccess } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { IdParams, toInt } from './route-inputs.dto.js';

/** `?hours=` 1-720 (default 6). */
export class MetricsQuery {
  @Omittable()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  hours?: number;
}

/** `?status=open` (default) or `all`. */
export class AlertsQuery {
  @Omittable()
  @IsIn(['open', 'all'])
  status?: 'open' | 'all';
}

const READ = { auth: 'guarded', roles: EVERYONE, scopes: ['diagnostics:read'] } as const;

/**
 * The REST twins of the metrics and alerts procedures (dispatched through the call pipeline,
 * the path naming the server or service).
 */
@Controller('api/v1')
export class MetricsController {
  constructor(private readonly pipeline: CallPipeline) {}

  private async parts<Q extends object>(req: Request, query: new () => Q) {
    const { id } = (await validateInput(IdParams, { ...req.params })) as IdParams;
    return { id, query: (await validateInput(query, { ...req.query })) as Q };
  }

  @Get('servers/:id/metrics')
  @RouteAccess({
    ...READ,
    name: 'GET /api/v1/servers/:id/metrics',
    project: { server: 'serverId' },
    summary:
      "The server's metrics history (serverMetrics): CPU, memory, disk and Docker disk use, oldest first, for the last `hours` (1-720, default 6).",
    params: IdParams,
    query: MetricsQuery,
  })
  serverMetrics(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'serverMetrics', async () => {
      const { id, query } = await this.parts(req, MetricsQuery);
      return { serverId: id, ...query };
    });
  }

  @Get('services/:id/metrics')
  @RouteAccess({
    ...READ,
    name: 'GET /api/v1/services/:id/metrics',
    project: { service: 'serviceId' },
    summary:
      "The service's containers' metrics history (serviceMetrics): CPU, memory, restarts, state and health, for the last `hours` (1-720, default 6).",
    params: IdParams,
    query: MetricsQuery,
  })
  serviceMetrics(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'serviceMetrics', async () => {
      const { id, query } = await this.parts(req, MetricsQuery);
      return { serviceId: id, ...query };
    });
  }

  @Get('servers/:id/alerts')
  @RouteAccess({
    ...READ,
    name: 'GET /api/v1/servers/:id/alerts',
    project: { server: 'serverId' },
    summary: "The server's alerts (alerts), newest first: `status` open (default) or all.",
    params: IdParams,
    query: AlertsQuery,
  })
  serverAlerts(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'alerts', async () => {
      const { id, query } = await this.parts(req, AlertsQuery);
      return { serverId: id, ...query };
    });
  }

  @Get('services/:id/alerts')
  @RouteAccess({
    ...READ,
    name: 'GET /api/v1/services/:id/alerts',
    project: { service: 'serviceId' },
    summary: "The service's containers' alerts (alerts), newest first: `status` open or all.",
    params: IdParams,
    query: AlertsQuery,
  })
  serviceAlerts(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'alerts', async () => {
      const { id, query } = await this.parts(req, AlertsQuery);
      return { serviceId: id, ...query };
    });
  }
}
