import { Inject, Injectable } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import {
  MetricSamples,
  serverSeries,
  type MetricSampleDoc,
  type MetricValues,
  type Resolution,
} from './metric-samples.js';
import { ServerMetricsInput, ServiceMetricsInput } from './metrics.input.js';

/** One point of a chart: the reading (or the hour's mean) and the hour's maximum. */
export interface MetricPoint {
  at: string;
  values: MetricValues;
  max: MetricValues;
}

interface Window {
  resolution: Resolution;
  from: string;
}

/** At most this many points per series in an answer (a day of minutes). */
const MAX_POINTS = 1440;

const point = (s: MetricSampleDoc): MetricPoint => ({ at: s.at, values: s.values, max: s.max });

/**
 * What both metrics queries read with: the samples, the server or service looked up (a 404 for
 * one that does not exist), and the window `hours` back from now (see `window`).
 */
@Injectable()
abstract class MetricsQuery {
  constructor(
    protected readonly samples: MetricSamples,
    protected readonly lookup: DeploymentLookup,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Readings as taken while they are kept and fit in one answer, else hourly means: the window
   * `hours` back from now (6 unless asked), and which of the two it is read at.
   */
  protected window(asked: number | undefined): Window {
    const hours = asked ?? 6;
    const { intervalSeconds, rawHours } = this.config.metrics;
    const readings = (hours * 3600) / Math.max(intervalSeconds, 5);
    return {
      resolution: hours <= rawHours && readings <= MAX_POINTS ? 'raw' : 'hour',
      from: new Date(this.clock.now().getTime() - hours * 3600_000).toISOString(),
    };
  }
}

export class ServerMetrics extends ProcedureQuery<
  ServerMetricsInput,
  Window & { serverId: string; points: MetricPoint[] }
> {}

@Procedure.read(ServerMetrics, {
  name: 'serverMetrics',
  roles: EVERYONE,
  scopes: ['diagnostics:read'],
  input: ServerMetricsInput,
  description:
    "A server's metrics history, oldest first: CPU, memory and disk use (percent), memory and disk used and Docker's disk use (bytes); as read for recent windows, hourly means and maxima for longer ones.",
  project: { server: 'serverId' },
})
export class ServerMetricsHandler extends MetricsQuery implements IQueryHandler<ServerMetrics> {
  async execute({ input }: ServerMetrics) {
    await this.lookup.server(input.serverId);
    const w = this.window(input.hours);
    const read = await this.samples.read(
      serverSeries(input.serverId),
      w.resolution,
      new Date(w.from),
      MAX_POINTS,
    );
    return { serverId: input.serverId, ...w, points: read.map(point) };
  }
}

/** One container's history, with its last state, health and restart count. */
export interface ContainerMetrics {
  container: string;
  state: string | null;
  health: string | null;
  points: MetricPoint[];
}

export class ServiceMetrics extends ProcedureQuery<
  ServiceMetricsInput,
  Window & { serviceId: string; containers: ContainerMetrics[] }
> {}

/** Containers of one service in one answer, at most. */
const MAX_CONTAINERS = 20;

@Procedure.read(ServiceMetrics, {
  name: 'serviceMetrics',
  roles: EVERYONE,
  scopes: ['diagnostics:read'],
  input: ServiceMetricsInput,
  description:
    "A service's containers' metrics history, oldest first: CPU and memory use, restarts, and each container's last state and health; as read for recent windows, hourly means and maxima for longer ones.",
  project: { service: 'serviceId' },
})
export class ServiceMetricsHandler extends MetricsQuery implements IQueryHandler<ServiceMetrics> {
  async execute({ input }: ServiceMetrics) {
    await this.lookup.service(input.serviceId);
    const w = this.window(input.hours);
    const from = new Date(w.from);
    const series = (await this.samples.seriesOf('serviceId', input.serviceId, from))
      .sort((a, b) => (a.container ?? '').localeCompare(b.container ?? ''))
      .slice(0, MAX_CONTAINERS);
    const containers = await Promise.all(
      series.map(async (latest) => {
        const read = await this.samples.read(latest.series, w.resolution, from, MAX_POINTS);
        const last = read.at(-1) ?? latest;
        return {
          container: latest.container ?? '',
          state: last.state,
          health: last.health,
          points: read.map(point),
        };
      }),
    );
    return { serviceId: input.serviceId, ...w, containers };
  }
}
