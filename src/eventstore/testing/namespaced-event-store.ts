import { randomUUID } from 'node:crypto';
import { validateAppend, validateReadLimit } from '../append-validation.js';
import type {
  AppendResult,
  EventHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadStreamOptions,
  RecordedEvent,
  Subscription,
} from '../event-store.port.js';
import type { StoreHarness } from '../../common/testing/store-harness.js';

/**
 * A fresh, empty store inside a shared server (EventStoreDB/KurrentDB cannot be emptied): its
 * streams are those named with this harness's prefix, which the view adds on the way in and
 * removes on the way out. Positions are the server's own.
 */
export class NamespacedEventStore implements EventStore {
  /** Other namespaces' events fall between this one's. */
  readonly positions = 'sparse';

  constructor(
    private readonly inner: EventStore,
    private readonly prefix = `t${randomUUID().slice(0, 8)}-`,
  ) {}

  async append(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    validateAppend(stream, events, expected);
    return this.inner.append(this.prefix + stream, events, expected);
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return (await this.inner.readStream(this.prefix + stream, options)).map((e) => this.strip(e));
  }

  async readAll(fromPosition: bigint, limit: number): Promise<RecordedEvent[]> {
    validateReadLimit(limit);
    const out: RecordedEvent[] = [];
    let from = fromPosition;
    for (;;) {
      const batch = await this.inner.readAll(from, 1000);
      for (const e of batch) {
        if (!e.stream.startsWith(this.prefix)) continue;
        out.push(this.strip(e));
        if (out.length === limit) return out;
      }
      if (batch.length < 1000) return out;
      from = batch[batch.length - 1].position + 1n;
    }
  }

  async headPosition(): Promise<bigint> {
    const all = await this.readAll(0n, 10_000);
    return all.length ? all[all.length - 1].position : 0n;
  }

  subscribe(
    fromPosition: bigint,
    handler: EventHandler,
    onError?: (error: unknown) => void,
  ): Subscription {
    return this.inner.subscribe(
      fromPosition,
      async (e) => {
        if (e.stream.startsWith(this.prefix)) await handler(this.strip(e));
      },
      onError,
    );
  }

  isReady(): Promise<boolean> {
    return this.inner.isReady();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private strip(e: RecordedEvent): RecordedEvent {
    return { ...e, stream: e.stream.slice(this.prefix.length) };
  }
}

/** A harness over a shared server: a new namespace per test; reopen keeps the namespace. */
export function namespacedHarness(open: () => EventStore): StoreHarness<EventStore> {
  const prefix = `t${randomUUID().slice(0, 8)}-`;
  let store = new NamespacedEventStore(open(), prefix);
  return {
    store,
    reopen: async () => {
      await store.close();
      store = new NamespacedEventStore(open(), prefix);
      return store;
    },
    dispose: () => store.close(),
  };
}
