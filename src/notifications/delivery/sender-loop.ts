import { Logger } from '@nestjs/common';
import { ProjectionLeases } from '../../../projections/projection-lease.js';
import { errorForLog } from '../../common/log-text.js';
import { WakeSignal } from '../../common/wake-signal.js';
import type { ReadStore } from '../../readstore/read-store.port.js';
import { SENDER_LEASES } from './delivery-record.js';

/**
 * The loop of a sender that must run in one process at a time (notifications, drains): it calls
 * `tick` every `intervalMs`, or at once when woken, in this process alone, or with several
 * replicas in the holder of the named lease (kept in `sender_leases` of the primary store and
 * taken over when its holder stops renewing it). A failed tick is logged and the loop goes on.
 */
export class SenderLoop {
  private readonly signal = new WakeSignal();
  private readonly leases: ProjectionLeases | null;
  private readonly logger: Logger;
  private refreshedAt = 0;
  private loop: Promise<void> | null = null;
  stopped = false;

  constructor(
    primary: ReadStore,
    replicas: number,
    private readonly lease: string,
    private readonly what: string,
  ) {
    this.leases =
      replicas > 1 ? new ProjectionLeases(primary, { collection: SENDER_LEASES }) : null;
    this.logger = new Logger(what);
  }

  async start(intervalMs: number, tick: () => Promise<void>): Promise<void> {
    await this.leases?.start();
    this.loop = this.run(intervalMs, tick);
  }

  /** Ends the loop after its tick in progress; another replica takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.signal.signal();
    await this.loop;
    await this.leases?.release().catch(() => undefined);
  }

  wake(): void {
    this.signal.signal();
  }

  private async run(intervalMs: number, tick: () => Promise<void>): Promise<void> {
    while (!this.stopped) {
      this.signal.reset();
      try {
        if (await this.mine()) await tick();
      } catch (error) {
        this.logger.error(`${this.what}: a pass failed`, errorForLog(error));
      }
      await this.signal.wait(intervalMs);
    }
  }

  /** Whether this replica sends now; renews the lease a third of its time-to-live apart. */
  private async mine(): Promise<boolean> {
    if (!this.leases) return true;
    const now = Date.now();
    if (now - this.refreshedAt >= this.leases.ttlMs / 3) {
      await this.leases.refresh([this.lease]);
      this.refreshedAt = now;
    }
    return this.leases.holds(this.lease);
  }
}
