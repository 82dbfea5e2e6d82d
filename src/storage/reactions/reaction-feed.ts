import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { errorForLog } from '../../common/log-text.js';
import { retryUntilDone } from '../../common/retry-until-done.js';
import { toCommittedEvent } from '../../eventstore/committed-event.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from '../../eventstore/event-store.port.js';
import { ReactionCheckpoints } from './reaction-checkpoints.js';

/** The name this process's feed keeps its checkpoint under (`api`, `worker`). */
export const REACTION_CONSUMER = Symbol('REACTION_CONSUMER');

const logger = new Logger('Reactions');

/** Events nobody reacts to move the stored checkpoint only this often (they have no effect). */
const IDLE_CHECKPOINT_EVERY = 1000n;

/**
 * Reacted events move the stored checkpoint at most this often (and once the feed is quiet
 * this long): storing it is a durable write, which on every deployment would cost the command
 * lane a third of its throughput. After a crash, at most this much is delivered again, which
 * reactions allow (they run at least once).
 */
const CHECKPOINT_EVERY_MS = 1000;

/**
 * The durable subscription that feeds the EventBus: it follows the event log (committed events
 * only) from its stored checkpoint and publishes each event as its definition's `Committed`
 * class, one at a time, in global order. The checkpoint moves past an event only once its
 * reactions (see Reaction) finished; a failure is retried, never skipped, so every reaction runs
 * at least once, also across a restart.
 */
@Injectable()
export class ReactionFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription: Subscription | null = null;
  private stopping = false;
  private seen: bigint | null = null;
  private stored: bigint | null = null;
  private storedAt = 0;
  private flush: NodeJS.Timeout | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly checkpoints: ReactionCheckpoints,
    private readonly bus: EventBus,
    @Inject(REACTION_CONSUMER) private readonly consumer: string,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    let from = await this.checkpoints.position(this.consumer);
    if (from === null) {
      // A fresh install starts at the head. Replaying the history would run its reactions again,
      // long after the fact: runners woken for deployments long finished, and reactions with
      // effects outside (a message, a queued deployment) repeated for events handled when they
      // happened. Stored at once, so a crash before the first event does not skip ahead.
      from = await this.events.headPosition();
      await this.checkpoints.advance(this.consumer, from);
    }
    this.stored = from;
    this.subscription = this.events.subscribe(
      from + 1n,
      (event) => this.deliver(event),
      (error) => logger.error('The reaction feed stopped', errorForLog(error)),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.flush) clearTimeout(this.flush);
    await this.subscription?.stop();
    if (this.seen !== null && this.seen !== this.stored) {
      await this.checkpoints.advance(this.consumer, this.seen).catch(() => undefined);
    }
  }

  /** Publishes one event until its reactions succeed (or the feed stops), then checkpoints. */
  private deliver(recorded: RecordedEvent): Promise<void> {
    return retryUntilDone(() => this.deliverOnce(recorded), {
      stopping: () => this.stopping,
      delayMs: (attempt) => Math.min(250 * 2 ** attempt, 10_000),
      onFailure: (error, attempt) =>
        logger.warn(
          `Reactions to event ${recorded.position} (${recorded.type}) failed (attempt ${attempt}); ` +
            `retrying: ${errorForLog(error).split('\n')[0]}`,
        ),
    });
  }

  private async deliverOnce(recorded: RecordedEvent): Promise<void> {
    // A new object each attempt: it collects the work of this attempt's reactions.
    const event = toCommittedEvent(recorded);
    let reacted = 0;
    if (event) {
      this.bus.publish(event);
      reacted = await event.settled();
    }
    this.seen = recorded.position;
    const behind = recorded.position - (this.stored ?? 0n);
    if (behind >= IDLE_CHECKPOINT_EVERY) return this.store();
    if (reacted === 0) return;
    if (Date.now() - this.storedAt >= CHECKPOINT_EVERY_MS) return this.store();
    this.flush ??= setTimeout(() => {
      this.flush = null;
      if (!this.stopping) void this.store().catch(() => undefined);
    }, CHECKPOINT_EVERY_MS).unref();
  }

  /** Stores the position of the last event whose reactions finished. */
  private async store(): Promise<void> {
    const position = this.seen;
    if (position === null || position === this.stored) return;
    await this.checkpoints.advance(this.consumer, position);
    this.stored = position;
    this.storedAt = Date.now();
  }
}
