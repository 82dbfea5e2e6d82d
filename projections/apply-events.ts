import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc, ReadStoreSession } from '../src/readstore/read-store.port.js';
import { BatchDocuments } from './batch-documents.js';
import {
  CHECKPOINT_COLLECTION,
  handlersFor,
  type Projection,
  type ProjectionCheckpoint,
} from './projection.js';

/** A projection's handlers over `events`, and its checkpoint, within `session`. */
export async function applyIn(
  session: ReadStoreSession,
  projection: Projection,
  events: RecordedEvent[],
): Promise<void> {
  const docs = new BatchDocuments(session);
  for (const event of events) {
    const position = Number(event.position);
    for (const handler of handlersFor(projection, event.type)) {
      const id = handler.documentId(event);
      if (id === null) continue;
      const stored = handler.perEvent ? null : await docs.get(handler.collection, id);
      if (stored && typeof stored._position === 'number' && stored._position >= position) {
        continue;
      }
      const next = handler.evolve(stored ? withoutRunnerFields(stored) : null, event);
      if (next !== null) docs.set(handler.collection, id, { ...next, id, _position: position });
      else if (stored) docs.set(handler.collection, id, null);
    }
  }
  await docs.flush();
  await saveCheckpoint(session, projection, Number(events[events.length - 1].position));
}

function withoutRunnerFields(doc: Doc): Doc {
  const copy: Doc = { ...doc };
  delete copy._position;
  return copy;
}

export function saveCheckpoint(
  session: ReadStoreSession,
  projection: Projection,
  position: number,
): Promise<void> {
  return session.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION).put({
    id: projection.name,
    version: projection.version,
    position,
    updatedAt: new Date().toISOString(),
  });
}
