import { Map as ImmutableMap } from 'immutable';
import type { Doc } from '../../readstore/read-store.port.js';
import type { RecordedEvent } from '../../eventstore/event-store.port.js';
import { handlersFor, type Projection } from '../../../projections/projection.js';
import type { Decider, EventLike } from '../../storage/decider.js';

/** The documents of one collection as a stream's own events make them, by id. */
export type StreamDocuments<D extends Doc> = ImmutableMap<string, D>;

/**
 * Folds a stream through a projection's own handlers for one collection: the document a
 * command decides on is then what its stream says now, shaped exactly as the read model shapes
 * it, without waiting for the projection to catch up. Only this stream's events count: fields a
 * projection takes from other streams (a service's current image) are not facts of this one.
 * It decides nothing; it is a Decider so that the runner's fold cache serves it.
 */
export function streamDocuments<D extends Doc>(
  projection: Projection,
  collection: string,
): Decider<StreamDocuments<D>, never> {
  return {
    initialState: () => ImmutableMap<string, D>(),
    evolve(state, event: EventLike) {
      let next = state;
      for (const handler of handlersFor(projection, event.type)) {
        if (handler.collection !== collection) continue;
        const recorded = event as RecordedEvent;
        const id = handler.documentId(recorded);
        if (id === null) continue;
        const doc = handler.evolve(next.get(id) ?? null, recorded) as D | null;
        next = doc ? next.set(id, doc) : next.delete(id);
      }
      return next;
    },
    decide: () => [],
  };
}
