import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { AccessTarget } from '../../access/access.service.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import type { PendingApproval } from '../approval-requests.js';
import { Reason } from '../deployment-fields.js';
import { requesterOf, type QueuedDeploymentAnswer } from '../deployment-launcher.js';
import { DeploymentRequests } from '../deployment-requests.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { RollbackLaunches } from '../rollback-launch.js';

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

/** Who may call executeRollback: its declaration's rule, also applied to the server it runs on. */
const EXECUTE_ROLLBACK = {
  roles: DEPLOYERS,
  scopes: ['deploy:start'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

/** A new deployment that replays the target's frozen snapshot on the service's server. */
@Procedure.command(ExecuteRollback, {
  name: 'executeRollback',
  ...EXECUTE_ROLLBACK,
  input: ExecuteRollbackInput,
  description:
    'Queues a deployment that replays a succeeded deployment’s frozen snapshot on the service’s current server (or opens an approval).',
  project: { service: 'serviceId' },
})
export class ExecuteRollbackHandler implements ICommandHandler<ExecuteRollback> {
  constructor(
    private readonly facts: StreamFacts,
    private readonly rollbacks: RollbackLaunches,
    private readonly requests: DeploymentRequests,
  ) {}

  async execute({
    input,
    ctx,
  }: ExecuteRollback): Promise<QueuedDeploymentAnswer | PendingApproval> {
    const service = await this.facts.service(input.serviceId);
    const { target, snapshot } = await this.rollbacks.replay(
      service,
      input.targetDeploymentId,
      { name: 'executeRollback', ...EXECUTE_ROLLBACK },
      ctx,
    );
    return this.requests.request(
      {
        service,
        imageRef: target.imageRef,
        trigger: 'rollback',
        requestedBy: requesterOf(ctx),
        snapshot,
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
