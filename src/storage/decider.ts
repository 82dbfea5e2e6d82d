import type { PendingEvent } from '../eventstore/define-event.js';
import type { EventMetadata } from '../eventstore/event-metadata.js';
import type { EventData } from '../eventstore/event-store.port.js';

/** What a decider folds: a recorded event or one it just decided. */
export interface EventLike {
  type: string;
  /** Present on recorded and decided events; lets a fold tell schema versions apart. */
  schemaVersion?: number;
  data: EventData;
  /** Present on recorded events only: an event just decided has not been attributed yet. */
  metadata?: EventMetadata;
}

/**
 * An aggregate as pure functions: fold past events into state, decide new events from a
 * command and that state (throwing an AppError to refuse). Tested Given/When/Then.
 * `evolve` returns a new state and never changes the one it is given: folded states are
 * cached and shared between commands. Keep the state to what decisions need, so that
 * folding one more event costs the same however long the stream is.
 */
export interface Decider<State, Command> {
  initialState(): State;
  evolve(state: State, event: EventLike): State;
  decide(command: Command, state: State): PendingEvent[];
}

/** Given past events, when a command arrives, the events decided (or the refusal thrown). */
export function decideFrom<S, C>(
  decider: Decider<S, C>,
  given: EventLike[],
  when: C,
): PendingEvent[] {
  const state = given.reduce((s, e) => decider.evolve(s, e), decider.initialState());
  return decider.decide(when, state);
}
