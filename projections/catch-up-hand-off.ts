import type { EventStore } from '../src/eventstore/event-store.port.js';
import type { ReadStore } from '../src/readstore/read-store.port.js';
import { CHECKPOINT_COLLECTION, type ProjectionCheckpoint } from './projection.js';
import type { RunnerState } from './runner-state.js';

/**
 * Applies every projection's events up to `head` somewhere else (another process) into the
 * same read store, committing documents and checkpoints together as the runner does. Resolves
 * once that is done or stopped through `signal`; rejects when it failed.
 */
export interface CatchUpElsewhere {
  /** How far behind (in events) the projections must be at start to hand off. */
  minEvents: number;
  run(behind: number, head: number, signal: AbortSignal): Promise<void>;
}

export interface HandOffHooks {
  /** Positions moved: waiters may be answered. */
  progressed: () => void;
  failed: (error: unknown) => void;
  /** How often positions are read back from the checkpoints while the other side works. */
  refreshMs: number;
}

/**
 * The runner's start when it is far behind: the catch-up runs elsewhere (see CatchUpElsewhere)
 * and the runner goes on from the checkpoints committed there. Nothing is applied here
 * meanwhile, so no event is applied by both; positions only move up to what is committed,
 * read back while the other side works so that status and waiters see its progress. Whatever
 * it did not reach (a failure, a stop) the runner applies itself from those checkpoints.
 */
export class CatchUpHandOff {
  private abort: AbortController | null = null;
  private stopped = false;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly elsewhere: CatchUpElsewhere,
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly states: Map<string, RunnerState>,
    private readonly hooks: HandOffHooks,
  ) {}

  /**
   * Hands off when far enough behind; resolves once the runner may apply events itself. Never
   * rejects: a failure is reported and the runner catches up itself.
   */
  async run(): Promise<void> {
    try {
      const head = Number(await this.events.headPosition());
      let lowest = head;
      for (const state of this.states.values()) lowest = Math.min(lowest, state.position);
      if (this.stopped || this.states.size === 0 || head - lowest < this.elsewhere.minEvents) {
        return;
      }
      this.abort = new AbortController();
      const refresh = setInterval(() => this.readBack(), this.hooks.refreshMs);
      try {
        await this.elsewhere.run(head - lowest, head, this.abort.signal);
      } finally {
        clearInterval(refresh);
        this.abort = null;
      }
    } catch (error) {
      this.hooks.failed(error);
    }
    this.readBack();
    await this.reading;
  }

  /** Stops the other side (or keeps it from starting); `run` resolves once it has stopped. */
  stop(): void {
    this.stopped = true;
    this.abort?.abort();
  }

  /** One read at a time; a failed read is retried by the next. */
  private readBack(): void {
    this.reading = this.reading
      .then(() => this.readCheckpoints())
      .catch((error: unknown) => this.hooks.failed(error));
  }

  private async readCheckpoints(): Promise<void> {
    const checkpoints = this.store.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION);
    let moved = false;
    for (const state of this.states.values()) {
      const checkpoint = await checkpoints.get(state.projection.name);
      // Another version's checkpoint is not this runner's position (start cleared the older).
      if (checkpoint?.version !== state.projection.version) continue;
      if (checkpoint.position > state.position) {
        state.position = checkpoint.position;
        moved = true;
      }
    }
    if (moved) this.hooks.progressed();
  }
}
