import type { EventStore, RecordedEvent } from '../../src/eventstore/event-store.port.js';
import { testEvent } from '../../src/eventstore/testing/test-events.js';
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

/**
 * `n` appends to the counters' streams over 7 keys: two counts each, every tenth a reset (which
 * deletes the key's document). Resolves with the last position.
 */
export async function appendCounts(events: EventStore, n: number): Promise<bigint> {
  let last = 0n;
  for (let i = 0; i < n; i++) {
    const key = `k${i % 7}`;
    const batch =
      i % 10 === 9
        ? [testEvent('Reset', { key })]
        : [testEvent('Counted', { key, by: i }), testEvent('Counted', { key, by: 1 })];
    last = (await events.append(`c-${key}`, batch, 'any')).lastPosition;
  }
  return last;
}
