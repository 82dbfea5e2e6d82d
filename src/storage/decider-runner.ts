import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../access/request-context.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import { EVENT_STORE, type AppendResult, type EventStore } from '../eventstore/event-store.port.js';
import { WrongExpectedRevisionError } from '../eventstore/wrong-expected-revision.error.js';
import type { Decider } from './decider.js';
import { EventWriter } from './event-writer.js';

export interface Decision<S> {
  events: PendingEvent[];
  /** State after the new events. */
  state: S;
  append: AppendResult | null;
}

/**
 * Runs a command against one stream: read, fold, decide, append with the revision read. When
 * another writer got there first, the whole decision is made again on the newer state, so an
 * invariant is always checked against the state the events are appended to.
 */
@Injectable()
export class DeciderRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly writer: EventWriter,
  ) {}

  /** The current state of a stream, folded, without deciding anything. */
  async load<S, C>(stream: string, decider: Decider<S, C>): Promise<S> {
    const past = await this.store.readStream(stream);
    return past.reduce((s, e) => decider.evolve(s, e), decider.initialState());
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
      const past = await this.store.readStream(stream);
      let state = past.reduce((s, e) => decider.evolve(s, e), decider.initialState());
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, state, append: null };
      const expected = past.length ? past[past.length - 1].revision : 'no_stream';
      try {
        const context = typeof ctx === 'function' ? ctx(events) : ctx;
        const append = await this.writer.append(stream, events, expected, context);
        state = events.reduce((s, e) => decider.evolve(s, e), state);
        return { events, state, append };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
      }
    }
  }
}
