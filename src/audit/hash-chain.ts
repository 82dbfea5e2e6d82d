import { createHash } from 'node:crypto';
import type { RecordedEvent } from '../eventstore/event-store.port.js';
import { canonicalJson } from '../common/canonical-json.js';

export const GENESIS = '0'.repeat(64);

/**
 * One link of the audit chain: SHA-256 over the previous link and everything that identifies
 * and says the event (its place in the global order, id, type, stream, revision, schema
 * version, time, data, metadata). Changing, removing, inserting or reordering any event changes
 * every later link.
 *
 * `place` counts events in the global order from 1. On SQLite it equals the event's position
 * (positions are dense), so chains sealed when the position itself was hashed are unchanged;
 * unlike a position, it survives a copy into EventStoreDB, whose positions are sparse.
 */
export function chainLink(previous: string, event: RecordedEvent, place: number): string {
  const body = canonicalJson({
    position: String(place),
    id: event.id,
    type: event.type,
    stream: event.stream,
    revision: event.revision.toString(),
    schemaVersion: event.schemaVersion,
    recordedAt: event.recordedAt,
    data: event.data,
    metadata: event.metadata,
  });
  return createHash('sha256').update(previous).update('\n').update(body).digest('hex');
}
