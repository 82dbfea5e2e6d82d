import type { RecordedEvent } from '../../src/eventstore/event-store.port.js';
import type { Doc } from '../../src/readstore/read-store.port.js';
import type { Projection } from '../projection.js';

export interface CounterDoc extends Doc {
  total: number;
  count: number;
}

/** A deliberately non-idempotent fold (it adds), so a double application would show. */
export function counterProjection(version = 1, multiplier = 1): Projection {
  const key = (e: RecordedEvent) => String(e.data.key);
  return {
    name: 'counters',
    version,
    collections: [{ name: 'counters', indexes: [{ fields: ['total'] }] }],
    handlers: {
      Counted: [
        {
          collection: 'counters',
          documentId: key,
          evolve: (current, event) => {
            const doc = (current as CounterDoc | null) ?? { id: key(event), total: 0, count: 0 };
            return {
              ...doc,
              total: doc.total + Number(event.data.by) * multiplier,
              count: doc.count + 1,
            };
          },
        },
      ],
      Reset: [{ collection: 'counters', documentId: key, evolve: () => null }],
    },
  };
}
