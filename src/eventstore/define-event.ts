import type { EventData } from './event-store.port.js';

/** An event ready to append, before the request's metadata is attached. */
export interface PendingEvent<D extends EventData = EventData> {
  /** A fixed id makes a repeat of the same fact fail as a duplicate; default: a new UUID. */
  id?: string;
  type: string;
  schemaVersion: number;
  data: D;
}

export interface EventDefinition<D extends EventData> {
  type: string;
  schemaVersion: number;
  (data: D): PendingEvent<D>;
}

/**
 * Declares an event type with its schema version once; calling the result builds an event.
 * Bump the version when the data shape changes, and keep readers of older versions.
 */
export function defineEvent<D extends EventData>(
  type: string,
  schemaVersion: number,
): EventDefinition<D> {
  const create = (data: D): PendingEvent<D> => ({ type, schemaVersion, data });
  return Object.assign(create, { type, schemaVersion });
}
