import { ServicesInProjects } from '../services-in-projects.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsInt, IsUUID, Max, Min } from 'class-validator';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
import { EnvironmentName } from '../deployment-fields.js';
import {
  deliveryMetrics,
  metricsWindow,
  type DeliveryMetrics as Measured,
  type FinishedDeployment,
  type Window,
} from '../metrics/delivery-metrics.js';

export class DeliveryMetricsInput {
  /** Whole UTC days ending today (default 30). */
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(90)
  windowDays?: number;

  @Omittable()
  @IsUUID()
  serviceId?: string;

  @Omittable()
  @EnvironmentName()
  environment?: string;
}

/** At most this many deployments are read for one answer (a window of 90 busy days fits). */
const MAX_DEPLOYMENTS = 20_000;
const PAGE = 1_000;

export interface DeliveryMetricsAnswer {
  window: Window;
  /** More deployments finished in the window than one answer reads. */
  truncated: boolean;
  overall: Measured;
  services: Measured[];
}

export class DeliveryMetrics extends ProcedureQuery<DeliveryMetricsInput, DeliveryMetricsAnswer> {}

/** Deployment frequency, lead time, change failure rate and time to restore, over a window. */
@Procedure.read(DeliveryMetrics, {
  name: 'deliveryMetrics',
  roles: EVERYONE,
  scopes: ['deploy:read'],
  projectList: true,
  input: DeliveryMetricsInput,
  description:
    'Deployment frequency, lead time (request to success), change failure rate and time to restore, per service and environment and overall, over whole UTC days (windowDays 1-90, default 30), with daily counts.',
})
export class DeliveryMetricsHandler implements IQueryHandler<DeliveryMetrics> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inProjects: ServicesInProjects,
  ) {}

  async execute({ input, ctx }: DeliveryMetrics): Promise<DeliveryMetricsAnswer> {
    const window = metricsWindow(this.clock.now(), input.windowDays ?? 30);
    const filter: Filter = {
      ...(await this.inProjects.filter(ctx.readableProjects, input.serviceId)),
      finishedAt: { $gte: window.from, $lt: window.to },
    };
    if (input.environment) filter.environment = input.environment;
    const deployments: FinishedDeployment[] = [];
    let cursor: string | undefined;
    let truncated: boolean;
    do {
      const page = await this.reads
        .collection<DeploymentDoc>('deployments')
        .find(filter, { sort: { finishedAt: 1 }, limit: PAGE, cursor });
      for (const d of page.items) {
        deployments.push({
          serviceId: d.serviceId,
          serviceName: d.serviceName,
          environment: d.environment,
          status: d.status,
          createdAt: d.createdAt,
          finishedAt: d.finishedAt,
        });
      }
      cursor = page.nextCursor ?? undefined;
      truncated = cursor !== undefined && deployments.length >= MAX_DEPLOYMENTS;
    } while (cursor && !truncated);
    return { window, truncated, ...deliveryMetrics(deployments, window) };
  }
}
