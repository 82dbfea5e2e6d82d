import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { DrainDoc } from '../../projections/drains.projection.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureQuery } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { DRAIN_STATE, freshState, type DrainStateDoc } from './delivery/drain-state.js';

/** How a drain is doing: shipping, behind a failing receiver, or switched off. */
export type DrainStatus = 'delivering' | 'failing' | 'disabled';

export type DrainDelivery = Pick<
  DrainStateDoc,
  | 'position'
  | 'delivered'
  | 'lastDeliveredAt'
  | 'failures'
  | 'lastError'
  | 'lastFailureAt'
  | 'nextAttemptAt'
> & {
  status: DrainStatus;
  /** Events recorded since the last one shipped (how far the drain is behind). */
  behind: number;
  /** Deployments whose output it follows now. */
  following: number;
};

export type DrainView = Pick<
  DrainDoc,
  | 'displayName'
  | 'kind'
  | 'endpoint'
  | 'caCertificate'
  | 'headerNames'
  | 'sources'
  | 'enabled'
  | 'fromPosition'
  | 'configuredAt'
  | 'configuredBy'
> & { drainId: string; delivery: DrainDelivery };

export class Drains extends ProcedureQuery<undefined, { drains: DrainView[] }> {}

/** Drains are few (one per tool a team feeds): the list is not paged. */
const MAX_DRAINS = 100;

@Procedure.read(Drains, {
  name: 'drains',
  roles: ADMINS,
  scopes: ['notifications:read'],
  description:
    'The drains with their endpoints and sources (never header values), and how each is delivering: how far behind, how much delivered, the last error.',
})
export class DrainsHandler implements IQueryHandler<Drains> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute(): Promise<{ drains: DrainView[] }> {
    const { items } = await this.reads
      .collection<DrainDoc>('drains')
      .find({}, { sort: { id: 1 }, limit: MAX_DRAINS });
    const head = Number(await this.events.headPosition());
    const states = this.primary.collection<DrainStateDoc>(DRAIN_STATE.name);
    const drains: DrainView[] = [];
    for (const { id, ...doc } of items) {
      const stored = await states.get(id);
      const state =
        stored && stored.fromPosition === doc.fromPosition
          ? stored
          : freshState(id, doc.fromPosition);
      drains.push({ drainId: id, ...doc, delivery: deliveryOf(doc.enabled, state, head) });
    }
    return { drains };
  }
}

function deliveryOf(enabled: boolean, state: DrainStateDoc, head: number): DrainDelivery {
  return {
    status: !enabled ? 'disabled' : state.failures > 0 ? 'failing' : 'delivering',
    position: state.position,
    behind: Math.max(0, head - state.position),
    following: state.open.length,
    delivered: state.delivered,
    lastDeliveredAt: state.lastDeliveredAt,
    failures: state.failures,
    lastError: state.lastError,
    lastFailureAt: state.lastFailureAt,
    nextAttemptAt: state.nextAttemptAt,
  };
}
