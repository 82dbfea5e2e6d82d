import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import { EVENT_STORE, type AppendResult, type EventStore } from '../eventstore/event-store.port.js';
import { WrongExpectedRevisionError } from '../eventstore/wrong-expected-revision.error.js';
import type { Decider, EventLike } from './decider.js';
import { appended } from './append-count.js';
import { EventWriter, type AppendPart } from './event-writer.js';
import { FoldedStateCache } from './folded-state-cache.js';

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

/** A command waiting for its stream. */
interface Waiting<S, C> {
  decider: Decider<S, C>;
  command: C;
  ctx: RequestContext | ((events: PendingEvent[]) => RequestContext);
  maxAttempts: number;
  resolve: (decision: Decision<S>) => void;
  reject: (error: unknown) => void;
}

/** What one command decided within a group: its events and the state after them, or a refusal. */
type Outcome<S> = { events: PendingEvent[]; state: S } | { error: unknown };

/** Most commands decided together and stored by one append. */
const MAX_GROUP = 64;

/**
 * Runs commands against one stream: catch up, decide, append with the revision read. When
 * another writer got there first, the decisions are made again on the newer state, so an
 * invariant is always checked against the state the events are appended to.
 *
 * Commands on one stream take turns in this process, and those that arrive while a turn is
 * being stored are decided together in the next: one after another on the folded state, their
 * events stored by one append (one expected-revision check, one fsync). Each one's answer waits
 * for that append, since it was decided on the state its predecessors leave; if the append
 * fails they are all decided again. Concurrent commands would otherwise all decide on the same
 * revision and all but one would fail and retry, a cost that grows with the square of the
 * concurrency; and taking turns one append at a time would cap a stream at one fsync per command.
 *
 * Catching up starts from the folded state cached for the stream and reads only the events
 * after its revision, so a command costs the same on the ten-thousandth event as on the first.
 * The cache is only a shortcut: the expected-revision check on append stays the single source
 * of truth, which keeps it correct when other processes write the same streams.
 */
@Injectable()
export class DeciderRunner {
  private readonly cache = new FoldedStateCache();
  /** Streams with a turn under way, and the commands waiting for the next one. */
  private readonly waiting = new Map<string, Waiting<unknown, unknown>[]>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly writer: EventWriter,
  ) {}

  /** The current state of a stream, folded, without deciding anything. */
  async load<S, C>(stream: string, decider: Decider<S, C>): Promise<S> {
    return (await this.catchUp(stream, decider)).state;
  }

  run<S, C>(
    stream: string,
    decider: Decider<S, C>,
    command: C,
    /** Or, when the actor is only known from the decision (a sign-up), a function of it. */
    ctx: RequestContext | ((events: PendingEvent[]) => RequestContext),
    maxAttempts = 10,
  ): Promise<Decision<S>> {
    const decided = new Promise<Decision<S>>((resolve, reject) => {
      const item: Waiting<S, C> = { decider, command, ctx, maxAttempts, resolve, reject };
      const queue = this.waiting.get(stream);
      if (queue) {
        queue.push(item as unknown as Waiting<unknown, unknown>);
        return;
      }
      this.waiting.set(stream, [item as unknown as Waiting<unknown, unknown>]);
      void this.turns(stream);
    });
    // Counted here, in the caller's async context: a turn appends for several callers at once.
    return decided.then((decision) => {
      appended(decision.events.length);
      return decision;
    });
  }

  /** Turns on one stream until nobody waits; the map entry goes when the queue empties. */
  private async turns(stream: string): Promise<void> {
    const queue = this.waiting.get(stream)!;
    while (queue.length > 0) {
      // A group shares one decider: one kind of state folded from the stream.
      const decider = queue[0].decider;
      let size = 1;
      while (size < queue.length && size < MAX_GROUP && queue[size].decider === decider) size++;
      await this.turn(stream, decider, queue.splice(0, size));
    }
    this.waiting.delete(stream);
  }

  /** Decides a group, stores its events, and returns once they are stored or refused. */
  private async turn<S, C>(
    stream: string,
    decider: Decider<S, C>,
    group: Waiting<S, C>[],
  ): Promise<void> {
    for (let attempt = 1; group.length > 0; attempt++) {
      try {
        await this.attempt(stream, decider, group);
        return;
      } catch (error) {
        const retry = error instanceof WrongExpectedRevisionError;
        for (const item of group) if (!retry || attempt >= item.maxAttempts) item.reject(error);
        group = retry ? group.filter((item) => attempt < item.maxAttempts) : [];
      }
    }
  }

  private async attempt<S, C>(
    stream: string,
    decider: Decider<S, C>,
    group: Waiting<S, C>[],
  ): Promise<void> {
    const current = await this.catchUp(stream, decider);
    let state = current.state;
    const outcomes: Outcome<S>[] = [];
    const parts: AppendPart[] = [];
    for (const item of group) {
      try {
        const events = item.decider.decide(item.command, state);
        if (events.length > 0) {
          const ctx = typeof item.ctx === 'function' ? item.ctx(events) : item.ctx;
          parts.push({ events, ctx });
          // Folded as the store returns them (JSON), so the cached state equals a full fold.
          state = events.map(asRecorded).reduce((s, e) => decider.evolve(s, e), state);
        }
        outcomes.push({ events, state });
      } catch (error) {
        outcomes.push({ error });
      }
    }
    const settle = (append: AppendResult | null) =>
      group.forEach((item, i) => {
        const outcome = outcomes[i];
        if ('error' in outcome) item.reject(outcome.error);
        else item.resolve({ ...outcome, append: outcome.events.length > 0 ? append : null });
      });
    if (parts.length === 0) return settle(null);
    const count = parts.reduce((n, p) => n + p.events.length, 0);
    const revision = (current.revision ?? -1n) + BigInt(count);
    let stored!: () => void;
    const durable = new Promise<void>((resolve) => (stored = resolve));
    const appended = this.writer.appendParts(stream, parts, current.revision ?? 'no_stream', () => {
      this.cache.set(stream, decider, { revision, state });
      stored();
    });
    // The next turn starts once this one is stored, not once the read models have it.
    await Promise.race([durable, appended]);
    appended.then(settle, (error: unknown) => group.forEach((item) => item.reject(error)));
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
