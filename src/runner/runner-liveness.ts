import { hostname } from 'node:os';
import type { CollectionSpec, Doc, ReadStore } from '../readstore/read-store.port.js';

/** One runner process: until when it is alive, and the deployments it runs. */
export interface RunnerHeartbeatDoc extends Doc {
  id: string;
  host: string;
  pid: number;
  /** Milliseconds since the epoch; past it, the runner is taken for dead. */
  expiresAt: number;
  deployments: string[];
}

export const RUNNER_HEARTBEATS = 'runner_heartbeats';
/** The collection as declared (and published in contract/read-models.json). */
export const RUNNER_HEARTBEATS_COLLECTION: CollectionSpec = { name: RUNNER_HEARTBEATS };

/** Heartbeats of runners dead for this long are deleted. */
const FORGET_AFTER_MS = 24 * 3600_000;

/**
 * Which runner processes are alive, and which deployments each runs, in the shared read store:
 * what lets a runner fail the deployments a dead runner left running without touching those
 * another live runner is running (several workers, or API replicas with embedded runners).
 *
 * A runner lists a deployment before it asks to start it, so a deployment that is running is
 * always listed by its runner while that runner lives. A runner is dead once its heartbeat
 * expires, or at once when it ran on this host under a process id that no longer exists (a
 * killed process on the same machine, as with the SQLite pair, is noticed without waiting).
 */
export class RunnerLiveness {
  private readonly running = new Set<string>();
  private beatAt = 0;
  private readonly host = hostname();

  constructor(
    private readonly reads: ReadStore,
    readonly runnerId: string,
    readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    await this.reads.ensureCollection(RUNNER_HEARTBEATS_COLLECTION);
    await this.beat();
  }

  /** Listed before the start command is stored (see the class comment). */
  async claiming(deploymentId: string): Promise<void> {
    this.running.add(deploymentId);
    await this.beat();
  }

  /** Not started after all, or finished. */
  async released(deploymentId: string): Promise<void> {
    if (this.running.delete(deploymentId)) await this.beat();
  }

  /** Renews the heartbeat once a third of its lifetime has passed. */
  async renew(): Promise<void> {
    if (this.now() - this.beatAt >= this.ttlMs / 3) await this.beat();
  }

  /** A clean stop: dead at once, its deployments no longer listed. */
  async stop(): Promise<void> {
    await this.heartbeats().delete(this.runnerId);
  }

  /** The deployments that live runners (this one included) say they run. */
  async runByLiveRunners(): Promise<Set<string>> {
    const { items } = await this.heartbeats().find({}, { limit: 1000 });
    const now = this.now();
    const out = new Set<string>(this.running);
    for (const beat of items) {
      if (beat.id === this.runnerId) continue;
      if (this.alive(beat, now)) for (const id of beat.deployments) out.add(id);
      else if (beat.expiresAt < now - FORGET_AFTER_MS) await this.heartbeats().delete(beat.id);
    }
    return out;
  }

  private alive(beat: RunnerHeartbeatDoc, now: number): boolean {
    if (beat.expiresAt <= now) return false;
    return beat.host !== this.host || processExists(beat.pid);
  }

  private async beat(): Promise<void> {
    const now = this.now();
    await this.heartbeats().put({
      id: this.runnerId,
      host: this.host,
      pid: process.pid,
      expiresAt: now + this.ttlMs,
      deployments: [...this.running],
    });
    this.beatAt = now;
  }

  private heartbeats() {
    return this.reads.collection<RunnerHeartbeatDoc>(RUNNER_HEARTBEATS);
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
