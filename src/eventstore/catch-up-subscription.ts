import { WakeSignal } from '../common/wake-signal.js';
import type { EventHandler, RecordedEvent, Subscription } from './event-store.port.js';

export interface CatchUpSource {
  readAll(fromPosition: bigint, limit: number): Promise<RecordedEvent[]>;
  /** Calls `listener` after every local append; returns the function that stops listening. */
  onAppended(listener: () => void): () => void;
}

const BATCH = 500;

/**
 * Reads from a position to the end, then waits for news: a local append wakes it at once,
 * and a poll picks up appends made by other processes sharing the store.
 */
export class CatchUpSubscription implements Subscription {
  private stopped = false;
  private readonly wakeSignal = new WakeSignal();
  private readonly done: Promise<void>;
  private readonly unlisten: () => void;

  constructor(
    private readonly source: CatchUpSource,
    private next: bigint,
    private readonly handler: EventHandler,
    private readonly onError: (error: unknown) => void,
    private readonly pollIntervalMs: number,
  ) {
    this.unlisten = source.onAppended(() => this.wakeSignal.signal());
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeSignal.signal();
    this.unlisten();
    await this.done;
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopped) {
        this.wakeSignal.reset();
        const batch = await this.source.readAll(this.next, BATCH);
        for (const event of batch) {
          if (this.stopped) return;
          await this.handler(event);
          this.next = event.position + 1n;
        }
        if (batch.length < BATCH && !this.stopped) await this.wakeSignal.wait(this.pollIntervalMs);
      }
    } catch (error) {
      this.stopped = true;
      this.unlisten();
      this.onError(error);
    }
  }
}

/** The subscriptions a store has given out, so that closing the store stops every one. */
export class CatchUpSubscriptions {
  private readonly open = new Set<Subscription>();

  constructor(
    private readonly source: CatchUpSource,
    private readonly pollIntervalMs: number,
  ) {}

  subscribe(
    fromPosition: bigint,
    handler: EventHandler,
    onError: (error: unknown) => void = () => undefined,
  ): Subscription {
    const subscription = new CatchUpSubscription(
      this.source,
      fromPosition,
      handler,
      onError,
      this.pollIntervalMs,
    );
    this.open.add(subscription);
    return {
      stop: async () => {
        this.open.delete(subscription);
        await subscription.stop();
      },
    };
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.open].map((s) => s.stop()));
  }
}
