import type { EventDefinition } from '../src/eventstore/define-event.js';
import type { EventData, RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { CollectionSpec, Doc } from '../src/readstore/read-store.port.js';

/** Fields the runner adds to every document it writes. */
export interface ProjectedFields {
  /** Global position of the last event that changed this document. */
  _position: number;
}

export type ProjectedDoc<D extends Doc> = D & ProjectedFields;

/** How one event type changes one collection of a projection. */
export interface ProjectionHandler<D extends Doc = Doc> {
  collection: string;
  /** The id of the document this event changes, or null when it changes none. */
  documentId(event: RecordedEvent): string | null;
  /** Pure: the document after the event (null deletes it). Never sees `_position`. */
  evolve(current: D | null, event: RecordedEvent): D | null;
  /**
   * Each event makes a document of its own (its id names the event) and `evolve` ignores the
   * current one, so the runner does not read it first; applying the event again writes the
   * same document.
   */
  perEvent?: boolean;
}

/**
 * A read model built from events. Changing `version` makes the runner drop the projection's
 * collections and rebuild them from position 0.
 */
export interface Projection {
  name: string;
  version: number;
  /** Collections this projection owns; no other projection writes them. */
  collections: CollectionSpec[];
  /** By event type; `*` handles every event. Built with `handlersOf(on(Event, ...), ...)`. */
  handlers: Record<string, ProjectionHandler[]>;
}

/** How one event definition changes one collection, with the event's data typed. */
export interface TypedHandler<D extends EventData, T extends Doc = Doc> {
  collection: string;
  documentId(event: RecordedEvent<D>): string | null;
  evolve(current: T | null, event: RecordedEvent<D>): T | null;
}

type HandlerEntry = readonly [type: string, handlers: ProjectionHandler[]];

/** The handlers of one event definition: they get its data in the current schema version. */
export function on<D extends EventData, T extends Doc = Doc>(
  definition: EventDefinition<D>,
  ...handlers: TypedHandler<D, T>[]
): HandlerEntry {
  return [
    definition.type,
    handlers.map((h) => ({
      collection: h.collection,
      documentId: (event) => h.documentId(definition.read(event)),
      evolve: (current, event) => h.evolve(current as T | null, definition.read(event)),
    })),
  ];
}

/** Handlers of every event, whatever its type (the audit trail). */
export function onEvery(...handlers: ProjectionHandler[]): HandlerEntry {
  return ['*', handlers];
}

/** A projection's handlers, keyed by event definition; an event type appears once. */
export function handlersOf(...entries: HandlerEntry[]): Record<string, ProjectionHandler[]> {
  const handlers: Record<string, ProjectionHandler[]> = {};
  for (const [type, list] of entries) {
    if (handlers[type]) throw new Error(`${type} is handled twice`);
    handlers[type] = list;
  }
  return handlers;
}

/** Handlers for an event: those of its type, then those under `*` (every event). */
export function handlersFor(projection: Projection, type: string): ProjectionHandler[] {
  const own = projection.handlers[type] ?? [];
  const all = projection.handlers['*'] ?? [];
  return all.length === 0 ? own : [...own, ...all];
}

/** Collections whose every handler is `perEvent`: the runner never reads their documents. */
export function writeOnlyCollections(projections: Projection[]): Set<string> {
  const read = new Set<string>();
  const written = new Set<string>();
  for (const projection of projections) {
    for (const handler of Object.values(projection.handlers).flat()) {
      written.add(handler.collection);
      if (!handler.perEvent) read.add(handler.collection);
    }
  }
  return new Set([...written].filter((name) => !read.has(name)));
}

export function handledEventTypes(projection: Projection): string[] {
  return Object.keys(projection.handlers).sort();
}

/** Checkpoint document, one per projection, in the runner's own collection. */
export interface ProjectionCheckpoint extends Doc {
  id: string;
  version: number;
  position: number;
  updatedAt: string;
}

export const CHECKPOINT_COLLECTION = 'projection_checkpoints';
