import { createHash } from 'node:crypto';
import type { RecordedEvent } from '../eventstore/event-store.port.js';
import { canonicalJson } from '../common/canonical-json.js';

export const GENESIS = '0'.repeat(64);

/**
 * One link of the audit chain: SHA-256 over the previous link and everything that identifies
 * and says the event (position, id, type, stream, revision, schema version, time, data,
 * metadata). Changing, removing, inserting or reordering any event changes every later link.
 */
export function chainLink(previous: string, event: RecordedEvent): string {
  const body = canonicalJson({
    position: event.position.toString(),
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
