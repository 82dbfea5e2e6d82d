import type { PendingEvent } from '../../src/eventstore/define-event.js';
import { systemMetadata, type EventMetadata } from '../../src/eventstore/event-metadata.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.port.js';

/** The time of the i-th given event: one second apart from 2026-11-22T00:00:00Z. */
export const at = (i: number) => new Date(Date.UTC(2026, 10, 22, 0, 0, i)).toISOString();

/** An event as a spec gives it: in stream `s`, by the system, unless it says otherwise. */
export interface GivenEvent extends PendingEvent {
  stream?: string;
  /** Merged over the system's metadata. */
  metadata?: Partial<EventMetadata>;
}

/** Given these events, recorded one second apart in this order, for projection specs. */
export function given(events: GivenEvent[]): RecordedEvent[] {
  return events.map(({ stream = 's', metadata, ...e }, i) => ({
    ...e,
    id: `e${i}`,
    stream,
    revision: BigInt(i),
    position: BigInt(i + 1),
    recordedAt: at(i),
    metadata: systemMetadata(metadata),
  }));
}
