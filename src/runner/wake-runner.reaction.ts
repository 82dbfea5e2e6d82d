import { Inject } from '@nestjs/common';
import { EventsHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { CommittedEventOf } from '../eventstore/committed-event.js';
import {
  DeploymentCancellationRequested,
  DeploymentTriggered,
} from '../events/deployments.events.js';
import { READ_MODELS, type ReadModels } from '../storage/read-models.js';
import { Reaction } from '../storage/reactions/reaction.js';
import { DeploymentRunner } from './deployment-runner.js';

type RunnerNews =
  | CommittedEventOf<typeof DeploymentTriggered>
  | CommittedEventOf<typeof DeploymentCancellationRequested>;

const NEWS = new Set([DeploymentTriggered.type, DeploymentCancellationRequested.type]);

/**
 * A deployment queued, or a cancellation asked for, anywhere (this process, another replica, the
 * API beside a worker) wakes this process's runner at once, instead of at its next poll
 * (SLIPWAY_RUNNER_POLL_MS).
 */
@EventsHandler(DeploymentTriggered.Committed, DeploymentCancellationRequested.Committed)
export class WakeRunner extends Reaction<RunnerNews> {
  constructor(
    private readonly runner: DeploymentRunner,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected async react(event: RunnerNews): Promise<void> {
    if (this.config.runner.mode === 'off') return;
    // The runner reads the deployments read model: wake it once that shows this event.
    await this.readModels.caughtUp(event.position, NEWS);
    this.runner.poke();
  }
}
