import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ProjectionRunner } from '../../../projections/projection-runner.js';
import { WakeSignal } from '../../common/wake-signal.js';
import { errorForLog } from '../../common/log-text.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from '../../eventstore/event-store.port.js';
import { DeploymentLogStore } from '../deployment-log-store.js';

/** Final events: the field naming the log they end, and the projection their status is read from. */
const DEPLOYMENT_END = { id: 'deploymentId', projection: 'deployments' };
const RUN_END = { id: 'runId', projection: 'scheduled_jobs' };
const FINAL_EVENTS = new Map([
  ['DeploymentSucceeded', DEPLOYMENT_END],
  ['DeploymentFailed', DEPLOYMENT_END],
  ['DeploymentCancelled', DEPLOYMENT_END],
  ['JobRunSucceeded', RUN_END],
  ['JobRunFailed', RUN_END],
]);
const logger = new Logger('LogFeed');

/**
 * Wakes the followers of a deployment's log (or a job run's) when something they wait for
 * happens, without reading the database to find out:
 * - a line appended by a runner in this process: the log store's in-process notification;
 * - the deployment reaching a final state: the event store's subscription (in-process wake-up,
 *   and its own poll for events another process appended), once the `deployments` read model
 *   has applied the event;
 * - with the runner in another process (`SLIPWAY_RUNNER=off`), lines that process appended:
 *   the store's change notifications (SQLite: the file's, see FileChangeSignal) wake every
 *   follower, at most every 20 ms, to read past its last line (one indexed query); and, in case
 *   a notification is missed or the store has none, every `SLIPWAY_LOG_STREAM_POLL_MS` as well.
 */
@Injectable()
export class DeploymentLogFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly followers = new Map<string, Set<WakeSignal>>();
  private subscription: Subscription | null = null;
  private stopListening: (() => void) | null = null;
  private poll: NodeJS.Timeout | null = null;
  private stopWatching: (() => void) | null = null;
  private pendingWake: NodeJS.Timeout | null = null;
  private lastWakeAll = 0;

  constructor(
    private readonly store: DeploymentLogStore,
    private readonly runner: ProjectionRunner,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stopListening = this.store.onAppended((id) => this.wake(id));
    const from = (await this.events.headPosition()) + 1n;
    this.subscription = this.events.subscribe(
      from,
      (event) => this.onEvent(event),
      (error) => logger.warn(`Final-state subscription stopped: ${errorForLog(error)}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopListening?.();
    this.stopWatching?.();
    this.stopWatching = null;
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    if (this.pendingWake) clearTimeout(this.pendingWake);
    this.pendingWake = null;
    await this.subscription?.stop();
    for (const signals of this.followers.values()) for (const s of signals) s.signal();
  }

  /** Registers a follower's signal; call the returned function when it stops following. */
  follow(deploymentId: string, signal: WakeSignal): () => void {
    let signals = this.followers.get(deploymentId);
    if (!signals) this.followers.set(deploymentId, (signals = new Set()));
    signals.add(signal);
    this.updatePoll();
    return () => {
      signals.delete(signal);
      if (signals.size === 0) this.followers.delete(deploymentId);
      this.updatePoll();
    };
  }

  private wake(deploymentId: string): void {
    for (const signal of this.followers.get(deploymentId) ?? []) signal.signal();
  }

  private async onEvent(event: RecordedEvent): Promise<void> {
    const end = FINAL_EVENTS.get(event.type);
    if (!end) return;
    const id = (event.data as Record<string, unknown>)[end.id];
    if (typeof id !== 'string' || !this.followers.has(id)) return;
    // Followers read the status from the read model: wake them once it shows the final state.
    await this.runner.waitFor(event.position, [end.projection]).catch(() => undefined);
    this.wake(id);
  }

  private wakeAll(): void {
    for (const id of this.followers.keys()) this.wake(id);
  }

  /** A change in another process: wake the followers, at most every 20 ms. */
  private changedElsewhere(): void {
    if (this.pendingWake) return;
    const wait = Math.max(0, this.lastWakeAll + 20 - Date.now());
    this.pendingWake = setTimeout(() => {
      this.pendingWake = null;
      this.lastWakeAll = Date.now();
      this.wakeAll();
    }, wait);
    this.pendingWake.unref();
  }

  private updatePoll(): void {
    const crossProcess = this.config.runner.mode === 'off';
    if (crossProcess && this.followers.size > 0 && !this.poll) {
      this.stopWatching = this.store.onChangedAnywhere(() => this.changedElsewhere());
      this.poll = setInterval(() => this.wakeAll(), this.config.streams.crossProcessPollMs);
      this.poll.unref();
    } else if (this.poll && this.followers.size === 0) {
      clearInterval(this.poll);
      this.poll = null;
      this.stopWatching?.();
      this.stopWatching = null;
    }
  }
}
