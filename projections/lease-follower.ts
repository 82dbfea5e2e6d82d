import type { ReadStore } from '../src/readstore/read-store.port.js';
import { saveCheckpoint } from './apply-events.js';
import type { ProjectionLeases } from './projection-lease.js';
import { CHECKPOINT_COLLECTION, type ProjectionCheckpoint } from './projection.js';
import type { RunnerState } from './runner-state.js';

export interface LeaseFollowerHooks {
  /** Adopting a projection failed: retried like a failed batch. */
  failed(state: RunnerState, error: unknown): void;
  /** A newer version took the projection (after `supersededBy` is set). */
  superseded(state: RunnerState): void;
  notice?(projection: string, message: string): void;
}

/**
 * The projection runner's side of the leases (several replicas): which projections this
 * replica applies, the rebuild when a new version takes one, and following the shared
 * checkpoints of the others.
 */
export class LeaseFollower {
  private lastRefresh = 0;

  constructor(
    private readonly leases: ProjectionLeases,
    private readonly store: ReadStore,
    private readonly states: ReadonlyMap<string, RunnerState>,
    private readonly hooks: LeaseFollowerHooks,
  ) {}

  /**
   * Takes or renews leases (every third of their lifetime), adopts the projections it has just
   * taken, stops those a newer version holds, and moves the projections held by another
   * replica to their shared checkpoints; true when one of those moved.
   */
  async follow(now: number): Promise<boolean> {
    const leases = this.leases;
    const names = [...this.states.keys()];
    let moved = false;
    if (now - this.lastRefresh >= leases.ttlMs / 3) {
      const versions = new Map(names.map((n) => [n, this.states.get(n)!.projection.version]));
      const { superseded } = await leases.refreshVersions(names, versions);
      this.lastRefresh = now;
      for (const [name, version] of superseded) this.superseded(this.states.get(name)!, version);
    }
    for (const state of this.states.values()) {
      const epoch = leases.epochOf(state.projection.name);
      if (epoch !== null && epoch !== state.adoptedEpoch)
        moved = (await this.adopt(state, epoch)) || moved;
    }
    for (const [name, checkpoint] of await leases.followed(names)) {
      const state = this.states.get(name)!;
      state.adoptedEpoch = null;
      if (state.supersededBy !== null) continue;
      state.lastError = null;
      state.unsaved = false;
      // A checkpoint of another version says nothing about this replica's documents.
      if (checkpoint.version !== state.projection.version) continue;
      if (checkpoint.position > state.position) {
        state.position = checkpoint.position;
        moved = true;
      }
    }
    return moved;
  }

  /**
   * The lease was just taken: start from the shared checkpoint, or, when it was written by
   * another version, clear the projection's collections and rebuild from 0, in a transaction
   * fenced by the lease (so exactly one replica rebuilds, and an old holder cannot commit
   * after). True when it did something.
   */
  private async adopt(state: RunnerState, epoch: number): Promise<boolean> {
    const { projection } = state;
    try {
      const rebuilt = await this.store.transaction(async (session) => {
        await this.leases.fence(session, projection.name);
        const checkpoint = await session
          .collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION)
          .get(projection.name);
        if (checkpoint && checkpoint.version === projection.version) return checkpoint.position;
        for (const spec of projection.collections) await session.collection(spec.name).clear();
        await saveCheckpoint(session, projection, 0);
        return null;
      });
      state.position = rebuilt ?? 0;
      state.adoptedEpoch = epoch;
      state.unsaved = false;
      state.supersededBy = null;
      if (rebuilt === null) {
        this.hooks.notice?.(
          projection.name,
          `rebuilding version ${projection.version} from position 0 (this replica holds its lease)`,
        );
      }
      return true;
    } catch (error) {
      this.hooks.failed(state, error);
      return false;
    }
  }

  /** A newer version holds the lease: stop applying, say so once, refuse who waits for it. */
  private superseded(state: RunnerState, version: number): void {
    if (state.supersededBy === version) return;
    state.supersededBy = version;
    state.adoptedEpoch = null;
    state.unsaved = false;
    const name = state.projection.name;
    this.hooks.notice?.(
      name,
      `superseded by version ${version}: this replica runs version ${state.projection.version} ` +
        'and stops applying it (upgrade this replica)',
    );
    this.hooks.superseded(state);
  }
}
