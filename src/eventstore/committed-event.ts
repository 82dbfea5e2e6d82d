import type { EventData, RecordedEvent } from './event-store.port.js';

/**
 * A stored event as the EventBus carries it: published after commit by the reaction feed. Each
 * `defineEvent` definition has its own subclass (`DeploymentTriggered.Committed`), the type an
 * `@EventsHandler` binds to; `data` has the definition's current shape (older versions upcast).
 */
export class CommittedEvent<D extends EventData = EventData> {
  private readonly work: Promise<unknown>[] = [];

  constructor(readonly event: RecordedEvent<D>) {}

  get data(): D {
    return this.event.data;
  }

  /** Global position in the event log. */
  get position(): bigint {
    return this.event.position;
  }

  /** A handler's work on this event: the feed moves past the event only once it settled. */
  track(work: Promise<unknown>): void {
    this.work.push(work);
  }

  /** How many handlers tracked work, once all of it succeeded; rejects when any failed. */
  async settled(): Promise<number> {
    await Promise.all(this.work);
    return this.work.length;
  }
}

export type CommittedEventClass<D extends EventData = EventData> = new (
  event: RecordedEvent,
) => CommittedEvent<D>;

/** The EventBus event of a definition: `CommittedEventOf<typeof DeploymentTriggered>`. */
export type CommittedEventOf<E extends { Committed: new (event: RecordedEvent) => object }> =
  InstanceType<E['Committed']>;

const classes = new Map<string, CommittedEventClass>();

/**
 * The EventBus class for one event type (one per type: `@EventsHandler` routes by class), with
 * `read` bringing older schema versions to the current shape.
 */
export function committedEventClass<D extends EventData>(
  type: string,
  read: (event: RecordedEvent) => RecordedEvent<D>,
): CommittedEventClass<D> {
  if (classes.has(type)) throw new Error(`Event type ${type} is defined twice`);
  const Committed = class extends CommittedEvent<D> {
    constructor(event: RecordedEvent) {
      super(read(event));
    }
  };
  Object.defineProperty(Committed, 'name', { value: type });
  classes.set(type, Committed as CommittedEventClass);
  return Committed;
}

/** The event as the EventBus carries it, or null when no definition declares its type. */
export function toCommittedEvent(event: RecordedEvent): CommittedEvent | null {
  const Committed = classes.get(event.type);
  return Committed ? new Committed(event) : null;
}
