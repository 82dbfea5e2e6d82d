import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { errorForLog } from '../../common/log-text.js';
import { PeriodicPass } from '../../common/periodic-pass.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { composeProject } from '../../deployments/compose-project.js';
import { AlertEvaluator, type ServerPass } from './alert-evaluator.js';
import type { ServerMetricsReading } from './server-metrics-reader.js';
import { ServerMetricsReader } from './server-metrics-reader.js';
import { containerSeries, MetricSamples, serverSeries } from './metric-samples.js';

const logger = new Logger('Metrics');
/** Servers read at once. */
const CONCURRENCY = 4;

/**
 * Every SLIPWAY_METRICS_INTERVAL_SECONDS, in the runner's process: reads each ready server and
 * its services' containers over SSH, records the readings (metric_samples, primary store), then
 * checks the alert rules and built-in checks on them, and prunes what is older than kept.
 * Containers that belong to no service of that server (other compose projects) are not kept.
 */
@Injectable()
export class MetricsCollector extends PeriodicPass {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reader: ServerMetricsReader,
    private readonly samples: MetricSamples,
    private readonly alerts: AlertEvaluator,
  ) {
    super();
  }

  protected override intervalSeconds(): number {
    return this.config.runner.mode === 'embedded' ? this.config.metrics.intervalSeconds : 0;
  }

  /** A pass now (tests move their clock, then call it). */
  override async pass(): Promise<void> {
    const servers = await readAll(this.reads.collection<ServerDoc>('servers'), {
      status: 'ready',
    });
    const queue = [...servers];
    const worker = async () => {
      for (let server = queue.shift(); server; server = queue.shift()) {
        await this.collect(server).catch((error: unknown) =>
          logger.warn(`Metrics of server ${server.id} not read: ${errorForLog(error)}`),
        );
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const now = this.clock.now().getTime();
    const { rawHours, hourlyDays } = this.config.metrics;
    await this.samples.prune(
      new Date(now - rawHours * 3600_000),
      new Date(now - hourlyDays * 86_400_000),
    );
  }

  private async collect(server: ServerDoc): Promise<void> {
    const reading = await this.reader.read(server);
    const now = this.clock.now();
    const interval = Math.max(this.config.metrics.intervalSeconds, 1) * 1000;
    const pass = await this.passOf(server, reading);
    await this.samples.record(
      [pass.sample, ...pass.containers.map((c) => c.sample)],
      now,
      Math.floor(now.getTime() / interval),
    );
    await this.alerts.check(pass, now);
  }

  /** The readings as samples, each container with the service its compose project is. */
  private async passOf(server: ServerDoc, reading: ServerMetricsReading): Promise<ServerPass> {
    const services = await readAll(this.reads.collection<ServiceDoc>('services'), {
      serverId: server.id,
      status: 'active',
    });
    const byProject = new Map(services.map((s) => [composeProject(s.name, s.environment), s]));
    const { server: host } = reading;
    return {
      server,
      sample: {
        series: serverSeries(server.id),
        serverId: server.id,
        serviceId: null,
        container: null,
        values: {
          cpuPercent: host.cpuPercent,
          memoryPercent: host.memoryPercent,
          memoryBytes: host.memoryUsedBytes,
          diskPercent: host.diskPercent,
          dockerDiskBytes: host.dockerDiskBytes,
        },
        state: null,
        health: null,
      },
      containers: reading.containers.flatMap((c) => {
        const service = byProject.get(c.project);
        if (!service) return [];
        return [
          {
            service,
            sample: {
              series: containerSeries(service.id, c.name),
              serverId: server.id,
              serviceId: service.id,
              container: c.name,
              values: {
                cpuPercent: c.cpuPercent,
                memoryPercent: c.memoryPercent,
                memoryBytes: c.memoryBytes,
                restarts: c.restarts,
              },
              state: c.state,
              health: c.health,
            },
          },
        ];
      }),
    };
  }
}
