import { AppError } from '../src/common/app-error.js';
import { WakeSignal } from '../src/common/wake-signal.js';
import type { EventStore } from '../src/eventstore/event-store.port.js';
import type { ReadStore } from '../src/readstore/read-store.port.js';
import { AffectedProjections } from './affected-projections.js';
import { BulkCatchUp } from './bulk-catch-up.js';
import { CatchUpHandOff, type CatchUpElsewhere } from './catch-up-hand-off.js';
import { LeaseFollower } from './lease-follower.js';
import { PositionWaiters } from './position-waiters.js';
import type { ProjectionLeases } from './projection-lease.js';
import { saveCheckpoint } from './apply-events.js';
import { applyBatch, saveSkipped } from './plain-batch.js';
import {
  initialStates,
  markApplied,
  markFailed,
  statusOf,
  supersededAmong,
  supersededError,
  type BatchHooks,
  type ProjectionStatus,
  type RunnerState as State,
} from './runner-state.js';
import { CHECKPOINT_COLLECTION, type Projection, type ProjectionCheckpoint } from './projection.js';

export type { ProjectionStatus } from './runner-state.js';
export type { CatchUpElsewhere } from './catch-up-hand-off.js';

export interface ProjectionRunnerOptions {
  batchSize?: number;
  /** How often an idle runner looks for events appended by other processes. */
  pollIntervalMs?: number;
  /** How long `waitFor` waits before giving up. */
  waitTimeoutMs?: number;
  /** First retry delay after a projection fails; doubles up to 30 s. */
  retryDelayMs?: number;
  onError?: (projection: string, error: unknown) => void;
  /** Once per occurrence: a rebuild under the lease, or a projection a newer version took. */
  onNotice?: (projection: string, message: string) => void;
  /**
   * Several replicas share the stores: apply only the projections whose lease this replica
   * holds, and follow the shared checkpoints of the others (see projection-lease.ts).
   */
  leases?: ProjectionLeases;
  /** Far behind at start, the catch-up runs there first (not under leases). */
  catchUpElsewhere?: CatchUpElsewhere;
}

/**
 * Applies events in global order to every projection. Each batch commits the projections'
 * documents together with their checkpoints, so a crash can never apply an event twice or
 * skip one; `_position` on each document makes re-application a no-op even so.
 */
export class ProjectionRunner {
  private readonly states: Map<string, State>;
  private readonly waiters: PositionWaiters;
  private readonly affected: AffectedProjections;
  private readonly batchSize: number;
  private behind = false;
  private readonly pollIntervalMs: number;
  private readonly retryDelayMs: number;
  private stopped = true;
  private readonly wakeSignal = new WakeSignal();
  private loop: Promise<void> | null = null;
  private readonly follower: LeaseFollower | null;
  private unlisten: (() => void)[] = [];
  /** While catching up on a store with a bulk writer (see BulkCatchUp). */
  private bulk: BulkCatchUp | null = null;
  /** A bulk write failed once: this runner catches up the plain way from then on. */
  private bulkRefused = false;
  private readonly handOff: CatchUpHandOff | null;
  /** What applying a batch reports back, the plain way or in bulk. */
  private readonly batchHooks: BatchHooks = {
    applied: (state, position, skipped) => markApplied(state, position, skipped, this.retryDelayMs),
    failed: (state, error) => this.failed(state, error),
    committed: () => this.waiters.settle(),
  };

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    projections: Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.waiters = new PositionWaiters(
      (position, names) => this.reached(position, names),
      options.waitTimeoutMs ?? 10_000,
      () => this.status(),
    );
    this.retryDelayMs = options.retryDelayMs ?? 250;
    this.states = initialStates(projections, this.retryDelayMs);
    this.affected = new AffectedProjections(projections);
    this.follower = options.leases
      ? new LeaseFollower(options.leases, store, this.states, {
          failed: (state, error) => this.failed(state, error),
          superseded: (state) => this.superseded(state),
          notice: options.onNotice,
        })
      : null;
    this.handOff =
      options.catchUpElsewhere && !options.leases
        ? new CatchUpHandOff(options.catchUpElsewhere, events, store, this.states, {
            progressed: () => this.waiters.settle(),
            failed: (error) => options.onError?.('(catch-up elsewhere)', error),
            refreshMs: this.pollIntervalMs,
          })
        : null;
  }

  /**
   * Declares collections, rebuilds projections whose version changed, then starts applying.
   * Under leases nothing is cleared here: the holder of a projection's lease rebuilds it when it
   * takes the lease (see LeaseFollower), so several replicas starting with a new version rebuild
   * once.
   */
  async start(): Promise<void> {
    await this.store.ensureCollection({ name: CHECKPOINT_COLLECTION });
    await this.options.leases?.start();
    const checkpoints = this.store.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION);
    for (const state of this.states.values()) {
      const { projection } = state;
      for (const spec of projection.collections) await this.store.ensureCollection(spec);
      const checkpoint = await checkpoints.get(projection.name);
      if (checkpoint && checkpoint.version === projection.version) {
        state.position = checkpoint.position;
      } else if (this.options.leases) {
        state.position = 0;
      } else {
        await this.store.transaction(async (session) => {
          for (const spec of projection.collections) await session.collection(spec.name).clear();
          await saveCheckpoint(session, projection, 0);
        });
        state.position = 0;
      }
    }
    // Wake at once for events other processes append and, under leases, for checkpoints other
    // replicas commit (what waiters here wait for); the poll stays as the fallback.
    const poke = () => this.poke();
    const onEvents = this.events.onAppended?.(poke);
    const onReads = this.options.leases ? this.store.onChanged?.(poke) : undefined;
    this.unlisten = [onEvents, onReads].filter((f): f is () => void => f !== undefined);
    this.stopped = false;
    const handOff = this.handOff;
    this.loop = handOff ? handOff.run().then(() => this.run()) : this.run();
  }

  async stop(): Promise<void> {
    for (const unlisten of this.unlisten.splice(0)) unlisten();
    this.stopped = true;
    this.handOff?.stop();
    this.poke();
    await this.loop;
    await this.catchingUp(false);
    await this.saveSkippedCheckpoints();
    await this.options.leases?.release().catch((e) => this.options.onError?.('(leases)', e));
    this.waiters.refuseAll(new AppError('SERVICE_UNAVAILABLE', 'The service is shutting down'));
  }

  /**
   * Resolves once the named projections (all when omitted) have applied every event up to
   * `position`: what a command awaits so that its caller reads its own write.
   */
  waitFor(position: bigint, names?: string[]): Promise<void> {
    const superseded = supersededAmong(this.states.values(), names ? new Set(names) : null);
    if (superseded) return Promise.reject(supersededError(superseded));
    const waiting = this.waiters.wait(Number(position), names ? new Set(names) : null);
    this.poke();
    return waiting;
  }

  /** Once the projections that events of these types change have applied `position`. */
  caughtUp(position: bigint, eventTypes: ReadonlySet<string>): Promise<void> {
    return this.waitFor(position, this.affectedBy(eventTypes));
  }

  /** The projections an append of these event types changes: what its writer waits for. */
  affectedBy(types: Iterable<string>): string[] {
    return this.affected.of(types);
  }

  status(): ProjectionStatus[] {
    return [...this.states.values()].map(statusOf);
  }

  /** Whether every projection runs (none failing or superseded), read without a report. */
  allRunning(): boolean {
    for (const state of this.states.values())
      if (state.lastError || state.supersededBy !== null) return false;
    return true;
  }

  /** Lowest checkpoint of all projections. */
  position(): number {
    let min = Number.MAX_SAFE_INTEGER;
    for (const state of this.states.values()) min = Math.min(min, state.position);
    return this.states.size === 0 ? 0 : min;
  }

  /** Asks the loop to look for new events now (called after local appends). */
  poke(): void {
    this.wakeSignal.signal();
  }

  private reached(position: number, names: Set<string> | null): boolean {
    for (const state of this.states.values()) {
      if (names && !names.has(state.projection.name)) continue;
      if (state.position < position || state.supersededBy !== null) return false;
    }
    return true;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.wakeSignal.reset();
      let progressed = false;
      try {
        progressed = await this.step();
      } catch (error) {
        this.options.onError?.('(runner)', error);
      }
      this.waiters.settle();
      if (!progressed) {
        await this.catchingUp(false).catch((e) => this.options.onError?.('(runner)', e));
        await this.saveSkippedCheckpoints();
      }
      if (!progressed && !this.stopped) await this.wakeSignal.wait(this.idleDelay());
    }
  }

  /**
   * Tells the store when the runner starts or stops being far behind (see ReadStore), and
   * catches up through its bulk writer meanwhile. Not under leases: there each batch is fenced
   * by the lease's epoch inside its own transaction.
   */
  private async catchingUp(behind: boolean): Promise<void> {
    if (behind === this.behind || !(this.store.catchingUp || this.store.bulkWriter)) return;
    this.behind = behind;
    if (!behind) await this.endBulk();
    await this.store.catchingUp?.(behind);
    if (behind && this.store.bulkWriter && !this.options.leases && !this.bulkRefused) {
      const projections = [...this.states.values()].map((s) => s.projection);
      this.bulk = new BulkCatchUp(
        this.store.bulkWriter(),
        this.store,
        projections,
        this.batchHooks,
      );
    }
  }

  /** Waits for the bulk writer's last commit; after a failure, goes on the plain way. */
  private async endBulk(): Promise<void> {
    const bulk = this.bulk;
    if (!bulk) return;
    this.bulk = null;
    const failure = await bulk.finish();
    if (failure === null) return;
    this.bulkRefused = true;
    this.options.onError?.('(runner)', failure);
  }

  /** Where the projection's next batch starts. */
  private positionOf(state: State): number {
    return this.bulk ? this.bulk.positionOf(state) : state.position;
  }

  /** Applies one batch; true when some projection moved forward. */
  private async step(): Promise<boolean> {
    const now = Date.now();
    const leased = this.follower ? await this.follower.follow(now) : false;
    const ready = [...this.states.values()].filter(
      (s) =>
        s.retryAt <= now &&
        s.supersededBy === null &&
        (!this.options.leases || this.options.leases.holds(s.projection.name)),
    );
    if (ready.length === 0) return leased;
    if (this.bulk?.failure) await this.endBulk();
    const from = Math.min(...ready.map((s) => this.positionOf(s))) + 1;
    // Far behind, batches are four times larger: fewer commits, each page written fewer times.
    // Not in bulk: there the writer commits the batches queued together (see BulkCatchUp).
    const size = this.behind && !this.bulk ? this.batchSize * 4 : this.batchSize;
    const batch = await this.events.readAll(BigInt(from), size);
    // A full batch: more are waiting behind it (the idle loop says when there are none).
    if (batch.length === size) await this.catchingUp(true);
    if (batch.length === 0) return false;
    if (this.bulk) return this.bulk.apply(ready, batch);
    return applyBatch(this.store, ready, batch, this.batchHooks, this.options.leases);
  }

  private failed(state: State, error: unknown): void {
    markFailed(state, error);
    this.options.onError?.(state.projection.name, error);
  }

  /** Checkpoints of projections that skipped events, in one write, once there is time. */
  private async saveSkippedCheckpoints(): Promise<void> {
    await saveSkipped(this.store, this.states.values(), this.options.leases).catch((error) =>
      this.options.onError?.('(checkpoints)', error),
    );
  }

  /** A newer version holds the lease: refuse who waits for the projection (see LeaseFollower). */
  private superseded(state: State): void {
    const name = state.projection.name;
    this.waiters.refuseWhere((names) => !names || names.has(name), supersededError(state));
  }

  private idleDelay(): number {
    const retrying = [...this.states.values()].some((s) => s.lastError);
    return retrying ? this.retryDelayMs : this.pollIntervalMs;
  }
}
