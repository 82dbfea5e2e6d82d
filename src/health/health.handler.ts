import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { serviceVersion } from '../common/version.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureQuery } from '../kernel/procedure-message.js';
import type { HealthReport, HealthSummary } from './health-report.js';

const startedAt = Date.now();
/** On a sparse store lag is counted by reading, up to this many events ("at least"). */
export const LAG_COUNT_CAP = 1000;

export class Health extends ProcedureQuery<undefined, HealthSummary | HealthReport> {}

/**
 * Liveness and readiness in one answer: the three stores reachable, projections caught up or not. Event
 * counts and projection positions tell an outsider how busy the team is: callers only.
 */
@Procedure.public(Health, {
  name: 'health',
  description:
    'Service status and version, without credentials. With any valid credential also uptime, ' +
    'store readiness, the event store head and each projection position, lag and status.',
})
export class HealthHandler implements IQueryHandler<Health> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
    private readonly runner: ProjectionRunner,
  ) {}

  async execute({ ctx }: Health): Promise<HealthSummary | HealthReport> {
    if (ctx.principal) return this.report();
    // Without credentials only the verdict is told: the positions and lag are not worked out.
    const ready = await Promise.all([
      this.events.isReady(),
      this.reads.isReady(),
      this.primary.isReady(),
    ]);
    const healthy = ready.every(Boolean) && this.runner.allRunning();
    return { status: healthy ? 'ok' : 'degraded', version: serviceVersion() };
  }

  async report(): Promise<HealthReport> {
    const [eventsReady, readsReady, primaryReady] = await Promise.all([
      this.events.isReady(),
      this.reads.isReady(),
      this.primary.isReady(),
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
    const healthy =
      eventsReady && readsReady && primaryReady && items.every((p) => p.status === 'running');
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
      primaryStore: { ready: primaryReady },
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
