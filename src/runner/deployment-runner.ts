import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { WakeSignal } from '../common/wake-signal.js';
import { DeploymentStateMachine } from '../deployments/deployment-state-machine.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { DeploymentExecutor } from './deployment-executor.js';
import { RunControl, runnerContext } from './run-control.js';
import { errorForLog } from '../common/log-text.js';
import { RunnerLiveness } from './runner-liveness.js';

const logger = new Logger('Runner');

/**
 * Claims queued deployments in FIFO order per service (one at a time per service, at most
 * `SLIPWAY_RUNNER_MAX_PER_SERVER` per server) and runs them. A deployment left running by a
 * runner that is no longer alive (see RunnerLiveness) is failed with "runner restarted": never
 * running forever, and never one that another live runner process is running.
 *
 * Several runner processes may share the stores. What they read here (queued, running, busy
 * services) is only where to look: the claim itself is the `start` command decided on the
 * service's queue stream and appended with the revision it was decided on, so exactly one
 * runner starts a deployment, and only the oldest queued of its service when none runs.
 */
@Injectable()
export class DeploymentRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly runnerId = randomUUID();
  private readonly active = new Map<
    string,
    { deployment: DeploymentDoc; control: RunControl; done: Promise<void> }
  >();
  private readonly wake = new WakeSignal();
  private stopped = true;
  private loop: Promise<void> | null = null;
  private readonly liveness: RunnerLiveness;

  constructor(
    private readonly executor: DeploymentExecutor,
    private readonly machine: DeploymentStateMachine,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) primary: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.liveness = new RunnerLiveness(primary, this.runnerId);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.runner.mode === 'off') return;
    await this.liveness.start();
    await this.recover();
    this.stopped = false;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wake.signal();
    await this.loop;
    for (const { control } of this.active.values()) {
      control.watchdogReason = 'runner stopped';
      control.abort.abort();
    }
    await Promise.all([...this.active.values()].map((a) => a.done));
    if (this.config.runner.mode !== 'off') {
      await this.liveness.stop().catch((e) => logger.warn('Runner heartbeat', errorForLog(e)));
    }
  }

  /** Asks the loop to look for work now. */
  poke(): void {
    this.wake.signal();
  }

  /** Fails the running deployments no live runner runs (their runner died or was restarted). */
  private async recover(): Promise<void> {
    const { items } = await this.deployments().find({ status: 'running' }, { limit: 1000 });
    if (items.length === 0) return;
    const live = await this.liveness.runByLiveRunners();
    for (const d of items) {
      if (live.has(d.id) || this.active.has(d.id)) continue;
      logger.warn(`Deployment ${d.id} was running when its runner stopped; marking it failed`);
      await this.machine
        .apply(
          {
            kind: 'fail',
            deploymentId: d.id,
            reason: 'runner restarted',
            step: d.steps.at(-1)?.step ?? null,
          },
          runnerContext(d.id),
        )
        .catch(() => undefined);
    }
  }

  private deployments() {
    return this.reads.collection<DeploymentDoc>('deployments');
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.wake.reset();
      try {
        await this.liveness.renew();
        await this.recover();
        await this.watchCancellations();
        await this.claim();
      } catch (error) {
        logger.error('Runner pass failed', errorForLog(error));
      }
      await this.wake.wait(this.config.runner.pollMs);
    }
  }

  private async watchCancellations(): Promise<void> {
    for (const { deployment, control } of this.active.values()) {
      if (control.abort.signal.aborted || control.committed) continue;
      const current = await this.deployments().get(deployment.id);
      if (current?.cancelRequested) {
        control.cancelReason = 'cancelled';
        control.abort.abort();
      }
    }
  }

  private async claim(): Promise<void> {
    const { items: queued } = await this.deployments().find(
      { status: 'queued' },
      { sort: { order: 1 }, limit: 500 },
    );
    const { items: running } = await this.deployments().find(
      { status: 'running' },
      { limit: 1000 },
    );
    const busyServices = new Set(running.map((d) => d.serviceId));
    const perServer = new Map<string, number>();
    for (const d of running) perServer.set(d.serverId, (perServer.get(d.serverId) ?? 0) + 1);
    const seen = new Set<string>();
    for (const d of queued) {
      if (seen.has(d.serviceId)) continue; // only the oldest queued of each service
      seen.add(d.serviceId);
      if (
        busyServices.has(d.serviceId) ||
        (perServer.get(d.serverId) ?? 0) >= this.config.runner.maxPerServer
      )
        continue;
      // Listed as ours before it can be running, so no other runner takes it for orphaned.
      await this.liveness.claiming(d.id);
      try {
        await this.machine.apply(
          { kind: 'start', deploymentId: d.id, runnerId: this.runnerId },
          runnerContext(d.id),
        );
      } catch {
        // Another runner started it, an older one of its service is first (what this pass
        // read was behind the stream), or it was cancelled meanwhile.
        await this.liveness.released(d.id);
        continue;
      }
      perServer.set(d.serverId, (perServer.get(d.serverId) ?? 0) + 1);
      const control = new RunControl();
      const done = this.executor
        .run(d, control)
        // The executor records every outcome itself; what still escapes it (its store gone,
        // the deployment ended by another runner meanwhile) is logged, never left to end the
        // process with an unhandled rejection.
        .catch((error: unknown) =>
          logger.error(`Deployment ${d.id} ended in error`, errorForLog(error)),
        )
        .finally(async () => {
          this.active.delete(d.id);
          await this.liveness.released(d.id).catch(() => undefined);
          this.wake.signal();
        });
      this.active.set(d.id, { deployment: d, control, done });
    }
  }
}
