import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from '../src/common/app-error.js';
import type {
  CollectionSpec,
  Doc,
  ReadStore,
  ReadStoreSession,
} from '../src/readstore/read-store.port.js';
import { CHECKPOINT_COLLECTION, type ProjectionCheckpoint } from './projection.js';

/** One lease per projection: who applies its events, until when, and under which epoch. */
export interface LeaseDoc extends Doc {
  id: string;
  holder: string;
  /** Raised by every takeover: the fencing token a holder's writes are checked against. */
  epoch: number;
  /** Milliseconds since the epoch; past it, another replica may take the lease over. */
  expiresAt: number;
  /**
   * The highest projection version that has held it (absent: written before versions were
   * recorded, read as 0). A replica with an older version never takes it again; a newer one
   * takes it at once, expired or not.
   */
  version?: number;
}

/** A lease refresh of one name: not ours, a newer version's, or ours under an epoch. */
type Outcome = null | { newer: number } | { epoch: number };

/** What a refresh found: the leases held, and those a newer version holds. */
export interface LeaseRefresh {
  held: Set<string>;
  /** Name → the newer version recorded in its lease. */
  superseded: Map<string, number>;
}

export const LEASE_COLLECTION = 'projection_leases';
/** Only with several replicas (`SLIPWAY_REPLICAS` > 1): the projections' and the sender's. */
export const LEASES: CollectionSpec = { name: LEASE_COLLECTION };

export interface ProjectionLeasesOptions {
  /** How long a lease lasts without renewal; default 10 s. */
  ttlMs?: number;
  /** This replica's name in the leases; default `<host>/<pid>/<8 random hex digits>`. */
  holder?: string;
  /** Where the leases are kept; default LEASES (`projection_leases`). */
  collection?: CollectionSpec;
  now?: () => number;
}

/** Written by a holder whose lease was taken over: its batch is rolled back, not committed. */
export class LeaseLostError extends AppError {
  constructor(projection: string) {
    super('CONFLICT', `projection ${projection} is applied by another replica now`);
    this.name = 'LeaseLostError';
  }
}

/**
 * Exactly one active processor per projection among the replicas sharing a read store. A
 * replica holds a projection's lease while it renews it; when the holder dies, the lease expires
 * and another replica takes it over with the epoch raised. Every batch the holder commits
 * first checks and rewrites its lease in the same transaction (`fence`): a holder that was
 * taken over while it paused cannot commit, and on MongoDB the rewrite makes a concurrent
 * takeover a write conflict. A replica that does not hold a lease follows the shared
 * checkpoint, so a command it answers waits for what the holder has applied.
 *
 * The lease records the projection version of its holder. A replica started with a newer
 * version takes the lease over at once (raising the epoch fences the old holder out) and
 * rebuilds; a replica with an older version never takes it again, expired or not.
 */
export class ProjectionLeases {
  readonly holder: string;
  readonly ttlMs: number;
  private readonly collection: CollectionSpec;
  private readonly now: () => number;
  private readonly epochs = new Map<string, number>();
  private readonly newer = new Map<string, number>();

  constructor(
    private readonly store: ReadStore,
    options: ProjectionLeasesOptions = {},
  ) {
    // Says which process holds a lease, to an operator reading the leases: host and pid.
    this.holder = options.holder ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
    this.ttlMs = options.ttlMs ?? 10_000;
    this.collection = options.collection ?? LEASES;
    this.now = options.now ?? Date.now;
  }

  async start(): Promise<void> {
    await this.store.ensureCollection(this.collection);
  }

  /**
   * Takes or renews the lease of each projection it can; returns the names it holds. With
   * `versions` (name → this replica's projection version; 0 when absent), a lease recorded
   * under an older version is taken over at once, and one under a newer version is never
   * taken (see `supersededBy`).
   */
  async refresh(names: string[], versions?: ReadonlyMap<string, number>): Promise<Set<string>> {
    return (await this.refreshVersions(names, versions)).held;
  }

  async refreshVersions(
    names: string[],
    versions?: ReadonlyMap<string, number>,
  ): Promise<LeaseRefresh> {
    const held = new Set<string>();
    const superseded = new Map<string, number>();
    for (const name of names) {
      const version = versions?.get(name) ?? 0;
      const outcome = await this.store.transaction<Outcome>(async (session) => {
        const leases = session.collection<LeaseDoc>(this.collection.name);
        const lease = await leases.get(name);
        const recorded = lease?.version ?? 0;
        if (lease && recorded > version) return { newer: recorded };
        const now = this.now();
        const mine = lease?.holder === this.holder && lease.epoch === this.epochs.get(name);
        const upgrade = !!lease && recorded < version;
        if (lease && !mine && !upgrade && lease.expiresAt > now) return null;
        const epoch = mine && !upgrade && lease ? lease.epoch : (lease?.epoch ?? 0) + 1;
        await leases.put({
          id: name,
          holder: this.holder,
          epoch,
          expiresAt: now + this.ttlMs,
          version,
        });
        return { epoch };
      });
      this.newer.delete(name);
      if (outcome === null) this.epochs.delete(name);
      else if ('newer' in outcome) {
        this.epochs.delete(name);
        this.newer.set(name, outcome.newer);
        superseded.set(name, outcome.newer);
      } else {
        this.epochs.set(name, outcome.epoch);
        held.add(name);
      }
    }
    return { held, superseded };
  }

  /** The newer version whose lease this replica found, or null. */
  supersededBy(name: string): number | null {
    return this.newer.get(name) ?? null;
  }

  /** The epoch under which this replica holds the lease, or null. */
  epochOf(name: string): number | null {
    return this.epochs.get(name) ?? null;
  }

  holds(name: string): boolean {
    return this.epochs.has(name);
  }

  /** Inside a batch's transaction: the lease is still ours under our epoch, and is renewed. */
  async fence(session: ReadStoreSession, name: string): Promise<void> {
    const epoch = this.epochs.get(name);
    const leases = session.collection<LeaseDoc>(this.collection.name);
    const lease = await leases.get(name);
    if (epoch === undefined || !lease || lease.holder !== this.holder || lease.epoch !== epoch) {
      this.epochs.delete(name);
      throw new LeaseLostError(name);
    }
    await leases.put({ ...lease, expiresAt: this.now() + this.ttlMs });
  }

  /** Shared checkpoints (position and version) of the projections this replica does not hold. */
  async followed(names: string[]): Promise<Map<string, { position: number; version: number }>> {
    const checkpoints = this.store.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION);
    const out = new Map<string, { position: number; version: number }>();
    for (const name of names) {
      if (this.holds(name)) continue;
      const checkpoint = await checkpoints.get(name);
      if (checkpoint) out.set(name, { position: checkpoint.position, version: checkpoint.version });
    }
    return out;
  }

  /** Gives up every lease this replica holds (a clean shutdown hands over at once). */
  async release(): Promise<void> {
    for (const name of [...this.epochs.keys()]) {
      const epoch = this.epochs.get(name);
      await this.store.transaction(async (session) => {
        const leases = session.collection<LeaseDoc>(this.collection.name);
        const lease = await leases.get(name);
        if (lease?.holder === this.holder && lease.epoch === epoch) {
          await leases.put({ ...lease, expiresAt: 0 });
        }
      });
      this.epochs.delete(name);
    }
  }
}
