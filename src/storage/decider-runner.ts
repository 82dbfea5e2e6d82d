import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../access/request-context.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import { EVENT_STORE, type AppendResult, type EventStore } from '../eventstore/event-store.port.js';
import { WrongExpectedRevisionError } from '../eventstore/wrong-expected-revision.error.js';
import type { Decider, EventLike } from './decider.js';
import { EventWriter } from './event-writer.js';
import { FoldedStateCache } from './folded-state-cache.js';
import { StreamLocks } from './stream-locks.js';

export interface Decision<S> {
  events: PendingEvent[];
  /** State after the new events. Read-only: it may be shared with later commands. */
  state: S;
  append: AppendResult | null;
}

interface Current<S> {
  state: S;
  /** Revision of the stream's last event, or null when the stream is empty. */
  revision: bigint | null;
}

/**
 * Runs a command against one stream: catch up, decide, append with the revision read. When
 * another writer got there first, the whole decision is made again on the newer state, so an
 * invariant is always checked against the state the events are appended to.
 *
 * Commands on one stream run one at a time in this process (until their events are stored,
 * not until the read models have them): concurrent commands would otherwise all decide on the
 * same revision and all but one would fail and decide again, a cost that grows with the
 * square of the concurrency.
 *
 * Catching up starts from the folded state cached for the stream and reads only the events
 * after its revision, so a command costs the same on the ten-thousandth event as on the first.
 * The cache is only a shortcut: the expected-revision check on append stays the single source
 * of truth, which keeps it correct when other processes write the same streams.
 */
@Injectable()
export class DeciderRunner {
  private readonly cache = new FoldedStateCache();
  private readonly locks = new StreamLocks();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly writer: EventWriter,
  ) {}

  /** The current state of a stream, folded, without deciding anything. */
  async load<S, C>(stream: string, decider: Decider<S, C>): Promise<S> {
    return (await this.catchUp(stream, decider)).state;
  }

  async run<S, C>(
    stream: string,
    decider: Decider<S, C>,
    command: C,
    /** Or, when the actor is only known from the decision (a sign-up), a function of it. */
    ctx: RequestContext | ((events: PendingEvent[]) => RequestContext),
    maxAttempts = 10,
  ): Promise<Decision<S>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.locks.exclusive(stream, async (release) => {
          const current = await this.catchUp(stream, decider);
          const events = decider.decide(command, current.state);
          if (events.length === 0) return { events, state: current.state, append: null };
          const expected = current.revision ?? 'no_stream';
          const context = typeof ctx === 'function' ? ctx(events) : ctx;
          let after: { state: S } | null = null;
          // Once the events are stored, and before the next command on this stream starts:
          // folded as the store returns them (JSON), so the cached state equals a full fold.
          const stored = () => {
            if (after) return after.state;
            after = {
              state: events.map(asRecorded).reduce((s, e) => decider.evolve(s, e), current.state),
            };
            const revision = (current.revision ?? -1n) + BigInt(events.length);
            this.cache.set(stream, decider, { revision, state: after.state });
            release();
            return after.state;
          };
          const append = await this.writer.append(stream, events, expected, context, stored);
          return { events, state: stored(), append };
        });
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
      }
    }
  }

  private async catchUp<S, C>(stream: string, decider: Decider<S, C>): Promise<Current<S>> {
    const cached = this.cache.get<S>(stream, decider);
    const fromRevision = cached ? cached.revision + 1n : 0n;
    const newer = await this.store.readStream(stream, { fromRevision });
    let state = cached ? cached.state : decider.initialState();
    for (const event of newer) state = decider.evolve(state, event);
    if (newer.length === 0) return { state, revision: cached?.revision ?? null };
    const revision = newer[newer.length - 1].revision;
    this.cache.set(stream, decider, { revision, state });
    return { state, revision };
  }
}

function asRecorded(event: PendingEvent): EventLike {
  return {
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: JSON.parse(JSON.stringify(event.data)) as EventLike['data'],
  };
}
