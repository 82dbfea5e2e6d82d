import { Inject, Injectable } from '@nestjs/common';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { serviceVersion } from '../common/version.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import type { HealthReport } from './health-report.js';

const startedAt = Date.now();
/** On a sparse store lag is counted by reading, up to this many events ("at least"). */
export const LAG_COUNT_CAP = 1000;

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
    const behind = await this.eventsBehind(
      head,
      this.runner.status().map((p) => p.position),
    );
    const items = this.runner.status().map((p) => ({
      name: p.name,
      version: p.version,
      position: p.position,
      lag: behind.get(p.position) ?? 0,
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

  /**
   * Events after each position, up to the head. A difference of positions on a dense store; on
   * a sparse one (EventStoreDB: positions are byte offsets) counted, at most LAG_COUNT_CAP, once
   * per distinct position.
   */
  private async eventsBehind(head: number, positions: number[]): Promise<Map<number, number>> {
    const behind = new Map<number, number>();
    for (const position of new Set(positions)) {
      if (position >= head) behind.set(position, 0);
      else if (this.events.positions === 'dense') behind.set(position, head - position);
      else {
        const after = await this.events.readAll(BigInt(position) + 1n, LAG_COUNT_CAP);
        behind.set(position, after.length);
      }
    }
    return behind;
  }
}
