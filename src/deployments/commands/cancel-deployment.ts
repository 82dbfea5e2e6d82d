import type { ICommandHandler } from '@nestjs/cqrs';
import { Omittable } from '../../common/omittable.js';
import { DeploymentCancelled, serviceDeploymentsStream } from '../../events/deployments.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { Note } from '../deployment-fields.js';
import { DeploymentIdInput } from '../deployment-id.input.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { serviceDeploymentsDecider } from '../service-deployments.decider.js';

export class CancelDeploymentInput extends DeploymentIdInput {
  @Omittable()
  @Note()
  reason?: string;
}

export interface CancelledDeploymentAnswer {
  deploymentId: string;
  status: 'cancelled' | 'cancelling';
}

export class CancelDeployment extends ProcedureCommand<
  CancelDeploymentInput,
  CancelledDeploymentAnswer
> {}

/** A queued deployment is cancelled at once; a running one is asked to stop between steps. */
@Procedure.command(CancelDeployment, {
  name: 'cancelDeployment',
  roles: DEPLOYERS,
  scopes: ['deploy:cancel'],
  input: CancelDeploymentInput,
  description: 'Cancels a queued deployment at once; asks a running one to stop between steps.',
  project: { deployment: 'deploymentId' },
})
export class CancelDeploymentHandler implements ICommandHandler<CancelDeployment> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ input, ctx }: CancelDeployment): Promise<CancelledDeploymentAnswer> {
    const deployment = await this.lookup.deployment(input.deploymentId);
    // A user by id, never by name: the reason stays in the events, where erasure cannot reach.
    const by = ctx.principal;
    const reason =
      input.reason ??
      `cancelled by ${by ? (by.kind === 'agent' ? `agent ${by.name}` : `user ${by.id}`) : 'a user'}`;
    const decision = await this.runner.run(
      serviceDeploymentsStream(deployment.serviceId),
      serviceDeploymentsDecider,
      { kind: 'cancel', deploymentId: deployment.id, reason, recorded: deployment },
      ctx,
      50,
    );
    const cancelled = decision.events.some((e) => e.type === DeploymentCancelled.type);
    return {
      deploymentId: deployment.id,
      status: cancelled ? ('cancelled' as const) : ('cancelling' as const),
    };
  }
}
