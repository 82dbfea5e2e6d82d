import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersFor, type Projection } from './projection.js';

export type InMemoryModel = Record<string, Record<string, Doc>>;

/**
 * Folds events through a projection's pure handlers with no storage at all: the reference
 * the runner is compared against, and the Given/When/Then harness for projection tests.
 */
export function projectInMemory(
  projection: Projection,
  events: RecordedEvent[],
  start: InMemoryModel = {},
): InMemoryModel {
  const model: InMemoryModel = structuredClone(start);
  for (const spec of projection.collections) model[spec.name] ??= {};
  for (const event of events) {
    for (const handler of handlersFor(projection, event.type)) {
      const id = handler.documentId(event);
      if (id === null) continue;
      const docs = (model[handler.collection] ??= {});
      const next = handler.evolve(docs[id] ?? null, event);
      if (next === null) delete docs[id];
      else docs[id] = next;
    }
  }
  return model;
}
