import { Inject } from '@nestjs/common';
import { EventsHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { CommittedEventOf } from '../eventstore/committed-event.js';
import { DeploymentTriggered } from '../events/deployments.events.js';
import { READ_MODELS, type ReadModels } from '../storage/read-models.js';
import { Reaction } from '../storage/reactions/reaction.js';
import { DeploymentRunner } from './deployment-runner.js';

const DEPLOYMENT_EVENTS = new Set([DeploymentTriggered.type]);

/**
 * A deployment queued anywhere (this process, another replica, the API beside a worker) wakes
 * this process's runner at once, instead of at its next poll (SLIPWAY_RUNNER_POLL_MS).
 */
@EventsHandler(DeploymentTriggered.Committed)
export class WakeRunnerOnTrigger extends Reaction<CommittedEventOf<typeof DeploymentTriggered>> {
  constructor(
    private readonly runner: DeploymentRunner,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected async react(event: CommittedEventOf<typeof DeploymentTriggered>): Promise<void> {
    if (this.config.runner.mode === 'off') return;
    // The runner finds queued work in the deployments read model: wake it once that has this one.
    await this.readModels.caughtUp(event.position, DEPLOYMENT_EVENTS);
    this.runner.poke();
  }
}
