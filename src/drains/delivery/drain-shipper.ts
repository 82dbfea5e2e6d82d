import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { DrainDoc } from '../../../projections/drains.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { errorForLog, logText } from '../../common/log-text.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { drainStream, type DrainSettings } from '../../events/drains.events.js';
import { SenderLoop } from '../../notifications/delivery/sender-loop.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { drainDecider } from '../drain.decider.js';
import { DrainBatches } from './drain-batch.js';
import { DrainSenders } from './drain-senders.js';
import { backOffMs, DRAIN_STATE, freshState, type DrainStateDoc } from './drain-state.js';

const logger = new Logger('Drains');
/** With several replicas, the one holding this lease ships; the others do nothing here. */
const SHIPPER_LEASE = 'drain-shipper';
/** Batches one drain may ship in a row before the others get their turn. */
const ROUNDS_PER_TURN = 20;
const MAX_DRAINS = 100;
/**
 * A drain catching up works at most this share of the time: after each batch it rests three
 * times as long as the batch took (at most a second), so the event loop stays free for commands.
 */
const REST_PER_WORK = 3;

/**
 * Ships each drain's records, apart from every command: it reads the event log, the audit
 * trail and the deployment output from where the drain stands (`drain_state`, in the primary
 * store), sends one batch at a time, and moves the drain's place only once the receiver took
 * the batch. A receiver that fails or is slow holds back its own drain alone, which then lags
 * (the `drains` answer says by how much) and catches up in batches once it answers: nothing is
 * dropped, and a command never waits for a drain. At least once: a batch whose answer was lost
 * is sent again. Runs in the API process; with several replicas, in the holder of a lease.
 */
@Injectable()
export class DrainShipper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: SenderLoop;
  private readonly hostname = hostname();

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: DeciderRunner,
    private readonly batches: DrainBatches,
    private readonly senders: DrainSenders,
  ) {
    this.loop = new SenderLoop(primary, config.storage.replicas, SHIPPER_LEASE, 'Drains');
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.primary.ensureCollection(DRAIN_STATE);
    if (this.config.notifications.sending) {
      await this.loop.start(this.config.drains.intervalMs, () => this.shipAll());
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  private async shipAll(): Promise<void> {
    const { items } = await this.reads
      .collection<DrainDoc>('drains')
      .find({ enabled: true }, { sort: { id: 1 }, limit: MAX_DRAINS });
    for (const drain of items) {
      if (this.loop.stopped) return;
      const { settings } = await this.runner.load(drainStream(drain.id), drainDecider);
      if (!settings?.enabled) continue;
      try {
        await this.turn(settings);
      } catch (error) {
        // Reading failed (a store busy or read models behind): tried again at the next tick.
        logger.warn(`Drain ${logText(settings.drainId)} could not read: ${errorForLog(error)}`);
      }
    }
  }

  /**
   * Ships one drain's batches, a few in a row while more is waiting and the receiver takes them;
   * when more is still waiting after them, the next pass starts at once.
   */
  private async turn(settings: DrainSettings): Promise<void> {
    const states = this.primary.collection<DrainStateDoc>(DRAIN_STATE.name);
    let state = await states.get(settings.drainId);
    if (!state || state.fromPosition !== settings.fromPosition) {
      state = freshState(settings.drainId, settings.fromPosition);
    }
    const now = this.clock.now();
    if (state.nextAttemptAt && Date.parse(state.nextAttemptAt) > now.getTime()) return;
    let worked = 0;
    for (let round = 0; round < ROUNDS_PER_TURN && !this.loop.stopped; round++) {
      if (round > 0) await rest(worked);
      const started = performance.now();
      const batch = await this.batches.next(settings.sources, state);
      const moved = batch.position !== state.position || !sameOpen(batch.open, state.open);
      if (batch.records.length === 0) {
        if (!moved) return;
        state = { ...state, position: batch.position, open: batch.open };
        await states.put(state);
        if (!batch.more) return;
        worked = performance.now() - started;
        continue;
      }
      try {
        await this.senders.send(settings, batch.records, this.hostname);
      } catch (error) {
        const failures = state.failures + 1;
        const at = this.clock.now();
        await states.put({
          ...state,
          failures,
          lastError: describe(error),
          lastFailureAt: at.toISOString(),
          nextAttemptAt: new Date(
            at.getTime() + backOffMs(this.config.drains.retryBaseMs, failures),
          ).toISOString(),
        });
        return;
      }
      state = {
        ...state,
        position: batch.position,
        open: batch.open,
        delivered: state.delivered + batch.records.length,
        lastDeliveredAt: this.clock.now().toISOString(),
        failures: 0,
        nextAttemptAt: null,
      };
      await states.put(state);
      if (!batch.more) return;
      worked = performance.now() - started;
    }
    this.loop.wake();
  }
}

/** The pause after a batch that took `workedMs`, when more is waiting. */
function rest(workedMs: number): Promise<void> {
  const ms = Math.min(1000, workedMs * REST_PER_WORK);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function sameOpen(a: DrainStateDoc['open'], b: DrainStateDoc['open']): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What the drain's reader sees of a failure: one line, bounded, no control characters. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/[^\x20-\x7e]/g, ' ').slice(0, 300);
}
