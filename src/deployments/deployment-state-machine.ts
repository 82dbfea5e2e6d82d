import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { DeploymentLookup } from './deployment-lookup.js';
import { serviceDeploymentsStream } from '../events/deployments.events.js';
import {
  serviceDeploymentsDecider,
  type ServiceDeploymentsCommand,
} from './service-deployments.decider.js';

type Transition = Exclude<ServiceDeploymentsCommand, { kind: 'trigger' | 'cancel' | 'close' }>;

/**
 * The transitions the runner drives (start, steps, succeed, fail, confirm a cancellation),
 * each decided on the service's queue stream so that FIFO and one-at-a-time always hold.
 */
@Injectable()
export class DeploymentStateMachine {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
  ) {}

  async apply(transition: Transition, ctx: RequestContext): Promise<void> {
    const deployment = await this.lookup.deployment(transition.deploymentId);
    await this.runner.run(
      serviceDeploymentsStream(deployment.serviceId),
      serviceDeploymentsDecider,
      { ...transition, recorded: deployment },
      ctx,
      50,
    );
  }
}
