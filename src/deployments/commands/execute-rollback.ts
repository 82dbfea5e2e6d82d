import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { badRequest, conflict } from '../../common/app-error.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import type { PendingApproval } from '../approval-requests.js';
import { Reason } from '../deployment-fields.js';
import { requesterOf, type QueuedDeploymentAnswer } from '../deployment-launcher.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { DeploymentRequests } from '../deployment-requests.js';
import { StreamFacts } from '../facts/stream-facts.js';

export class ExecuteRollbackInput {
  @IsUUID()
  serviceId!: string;

  @IsUUID()
  targetDeploymentId!: string;

  @Omittable()
  @Reason()
  reason?: string;
}

export class ExecuteRollback extends ProcedureCommand<
  ExecuteRollbackInput,
  QueuedDeploymentAnswer | PendingApproval
> {}

/** A new deployment that replays the target's frozen snapshot. */
@Procedure.command(ExecuteRollback, {
  name: 'executeRollback',
  roles: DEPLOYERS,
  scopes: ['deploy:start'],
  input: ExecuteRollbackInput,
  description:
    'Queues a deployment that replays a succeeded deployment’s frozen snapshot (or opens an approval).',
  project: { service: 'serviceId' },
})
export class ExecuteRollbackHandler implements ICommandHandler<ExecuteRollback> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly facts: StreamFacts,
    private readonly requests: DeploymentRequests,
  ) {}

  async execute({
    input,
    ctx,
  }: ExecuteRollback): Promise<QueuedDeploymentAnswer | PendingApproval> {
    const service = await this.facts.service(input.serviceId);
    const target = await this.lookup.deployment(input.targetDeploymentId);
    if (target.serviceId !== service.id)
      throw badRequest('The target deployment belongs to another service', [
        { path: 'targetDeploymentId', message: 'not of this service' },
      ]);
    if (target.status !== 'succeeded')
      throw conflict(
        `Only a succeeded deployment can be rolled back to (this one ${target.status})`,
      );
    return this.requests.request(
      {
        service,
        imageRef: target.imageRef,
        trigger: 'rollback',
        requestedBy: requesterOf(ctx),
        snapshot: target.snapshot,
        rollbackOf: target.id,
        idempotencyKey: ctx.idempotencyKey,
      },
      {
        action: 'rollback',
        payload: { serviceId: service.id, targetDeploymentId: target.id },
        reason: input.reason ?? `Roll ${service.name} back to ${target.imageRef}`,
      },
      ctx,
    );
  }
}
