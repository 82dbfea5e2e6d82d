import type { PendingEvent } from '../../src/eventstore/define-event.js';
import { systemMetadata } from '../../src/eventstore/event-metadata.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.port.js';

/** The time of the i-th given event: one second apart from 2026-11-22T00:00:00Z. */
export const at = (i: number) => new Date(Date.UTC(2026, 10, 22, 0, 0, i)).toISOString();

/** Given these events, recorded one second apart in this order, for projection specs. */
export function given(events: PendingEvent[]): RecordedEvent[] {
  return events.map((e, i) => ({
    ...e,
    id: `e${i}`,
    stream: 's',
    revision: BigInt(i),
    position: BigInt(i + 1),
    recordedAt: at(i),
    metadata: systemMetadata(),
  }));
}
