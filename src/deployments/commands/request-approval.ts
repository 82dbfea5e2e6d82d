import type { ICommandHandler } from '@nestjs/cqrs';
import { IsIn, IsUUID } from 'class-validator';
import { badRequest, conflict } from '../../common/app-error.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { ApprovalRequests, type PendingApproval } from '../approval-requests.js';
import { ImageReference, Reason } from '../deployment-fields.js';
import { checkRepository, validImageRef } from '../deployment-launcher.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { StreamFacts } from '../facts/stream-facts.js';

export class RequestApprovalInput {
  @IsIn(['deploy', 'rollback', 'restore'])
  action!: 'deploy' | 'rollback' | 'restore';

  @IsUUID()
  serviceId!: string;

  @Omittable()
  @ImageReference()
  imageTag?: string;

  @Omittable()
  @IsUUID()
  targetDeploymentId?: string;

  @Omittable()
  @IsUUID()
  backupId?: string;

  @Reason()
  reason!: string;
}

export class RequestApproval extends ProcedureCommand<RequestApprovalInput, PendingApproval> {}

/** Asks for approval of a deploy, rollback or restore, with its payload checked and frozen. */
@Procedure.command(RequestApproval, {
  name: 'requestApproval',
  roles: DEPLOYERS,
  scopes: ['approvals:request'],
  input: RequestApprovalInput,
  description: 'Asks for approval of a deploy, rollback or restore; the payload is frozen.',
  project: { service: 'serviceId' },
})
export class RequestApprovalHandler implements ICommandHandler<RequestApproval> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly facts: StreamFacts,
    private readonly approvals: ApprovalRequests,
  ) {}

  async execute({ input, ctx }: RequestApproval): Promise<PendingApproval> {
    const service = await this.facts.service(input.serviceId);
    const payload: Record<string, unknown> = { serviceId: service.id };
    if (input.action === 'deploy') {
      if (!input.imageTag)
        throw badRequest('A deploy request needs imageTag', [
          { path: 'imageTag', message: 'required for deploy' },
        ]);
      payload.imageRef = validImageRef(input.imageTag);
      checkRepository(String(payload.imageRef), service.imageRepository);
    } else if (input.action === 'rollback') {
      if (!input.targetDeploymentId)
        throw badRequest('A rollback request needs targetDeploymentId', [
          { path: 'targetDeploymentId', message: 'required for rollback' },
        ]);
      const target = await this.lookup.deployment(input.targetDeploymentId);
      if (target.serviceId !== service.id || target.status !== 'succeeded')
        throw conflict('The target must be a succeeded deployment of this service');
      payload.targetDeploymentId = target.id;
    } else {
      if (!input.backupId)
        throw badRequest('A restore request needs backupId', [
          { path: 'backupId', message: 'required for restore' },
        ]);
      const backup = await this.lookup.backup(input.backupId);
      if (backup.serviceId !== service.id) throw conflict('The backup belongs to another service');
      payload.backupId = backup.id;
    }
    return this.approvals.open(input.action, service.id, payload, input.reason, ctx);
  }
}
