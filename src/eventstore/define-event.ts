import { committedEventClass, type CommittedEventClass } from './committed-event.js';
import type { EventData, RecordedEvent } from './event-store.port.js';

/** An event ready to append, before the request's metadata is attached. */
export interface PendingEvent<D extends EventData = EventData> {
  /** A fixed id makes a repeat of the same fact fail as a duplicate; default: a new UUID. */
  id?: string;
  type: string;
  schemaVersion: number;
  data: D;
}

/** The data type an event definition declares. */
export type EventDataOf<E> = E extends EventDefinition<infer D> ? D : never;

/** Turns the data of an older schema version into the current shape. */
export type Upcaster<D extends EventData> = (data: EventData, schemaVersion: number) => D;

export interface EventDefinition<D extends EventData> {
  type: string;
  schemaVersion: number;
  (data: D): PendingEvent<D>;
  /** A recorded event of this type with its data in the current shape (older versions upcast). */
  read(event: RecordedEvent): RecordedEvent<D>;
  /** The data of an event of this type (recorded or just decided), in the current shape. */
  dataOf(event: Versioned): D;
  /** The class its stored events have on the EventBus: `@EventsHandler(X.Committed)`. */
  Committed: CommittedEventClass<D>;
}

/** What `dataOf` needs of an event: recorded and decided events both have it. */
export interface Versioned {
  type: string;
  schemaVersion?: number;
  data: EventData;
}

/**
 * Declares an event type with its data type and schema version once; calling the result builds
 * an event, `read` types a recorded one. Bump the version when the data shape changes, and give
 * an upcaster from the older shapes (or keep readers of them).
 */
export function defineEvent<D extends EventData>(
  type: string,
  schemaVersion: number,
  upcast?: Upcaster<D>,
): EventDefinition<D> {
  const create = (data: D): PendingEvent<D> => ({ type, schemaVersion, data });
  const dataOf = (event: Versioned): D => {
    if (event.type !== type) throw new Error(`${event.type} read as ${type}`);
    const version = event.schemaVersion ?? schemaVersion;
    // The one place an event's stored data becomes its declared type.
    return upcast && version !== schemaVersion ? upcast(event.data, version) : (event.data as D);
  };
  const read = (event: RecordedEvent): RecordedEvent<D> => {
    const data = dataOf(event);
    return data === event.data ? (event as RecordedEvent<D>) : { ...event, data };
  };
  const Committed = committedEventClass(type, read);
  return Object.assign(create, { type, schemaVersion, read, dataOf, Committed });
}
