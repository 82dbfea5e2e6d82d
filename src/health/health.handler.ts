import { Inject, Injectable } from '@nestjs/common';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { serviceVersion } from '../common/version.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import type { HealthReport } from './health-report.js';

const startedAt = Date.now();

/** Liveness and readiness in one answer: stores reachable, projections caught up or not. */
@Injectable()
export class HealthHandler {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly runner: ProjectionRunner,
  ) {}

  async execute(): Promise<HealthReport> {
    const [eventsReady, readsReady] = await Promise.all([
      this.events.isReady(),
      this.reads.isReady(),
    ]);
    const head = eventsReady ? Number(await this.events.headPosition()) : 0;
    const items = this.runner.status().map((p) => ({
      name: p.name,
      version: p.version,
      position: p.position,
      lag: Math.max(0, head - p.position),
      status: p.status,
    }));
    const lag = items.reduce((max, p) => Math.max(max, p.lag), 0);
    const healthy = eventsReady && readsReady && items.every((p) => p.status === 'running');
    return {
      status: healthy ? 'ok' : 'degraded',
      version: serviceVersion(),
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      eventStore: {
        ready: eventsReady,
        headPosition: head,
        ...(this.events.connectionState ? { state: this.events.connectionState } : {}),
      },
      readStore: { ready: readsReady },
      projections: { lag, items },
    };
  }
}
