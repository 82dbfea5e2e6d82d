import type { ICommandHandler } from '@nestjs/cqrs';
import { IsIn, IsUUID } from 'class-validator';
import type { AccessTarget } from '../../access/access.service.js';
import { badRequest, conflict } from '../../common/app-error.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { restoreBasis } from '../approval-payload.js';
import { ApprovalRequests, type PendingApproval } from '../approval-requests.js';
import { ImageReference, Reason } from '../deployment-fields.js';
import { checkRepository, validImageRef } from '../deployment-launcher.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { DeploymentRequests } from '../deployment-requests.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { RollbackLaunches } from '../rollback-launch.js';

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

/** Who may call requestApproval: its declaration's rule, also applied where a rollback runs. */
const REQUEST_APPROVAL = {
  roles: DEPLOYERS,
  scopes: ['approvals:request'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

const required = (path: string, action: string) =>
  badRequest(`A ${action} request needs ${path}`, [{ path, message: `required for ${action}` }]);

/**
 * Asks for approval of a deploy, rollback or restore, with what it runs checked and frozen: a
 * deploy's or rollback's whole snapshot, a restore's server and command (approval-payload.ts).
 */
@Procedure.command(RequestApproval, {
  name: 'requestApproval',
  ...REQUEST_APPROVAL,
  input: RequestApprovalInput,
  description:
    'Asks for approval of a deploy, rollback or restore; what it runs (the snapshot, or the restore’s server and command) is frozen.',
  project: { service: 'serviceId' },
})
export class RequestApprovalHandler implements ICommandHandler<RequestApproval> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly facts: StreamFacts,
    private readonly approvals: ApprovalRequests,
    private readonly requests: DeploymentRequests,
    private readonly rollbacks: RollbackLaunches,
  ) {}

  async execute({ input, ctx }: RequestApproval): Promise<PendingApproval> {
    const service = await this.facts.service(input.serviceId);
    const { reason } = input;
    if (input.action === 'deploy') {
      if (!input.imageTag) throw required('imageTag', 'deploy');
      const imageRef = validImageRef(input.imageTag);
      checkRepository(imageRef, service.imageRepository);
      const payload = { serviceId: service.id };
      return this.requests.ask({ service, imageRef }, { action: 'deploy', payload, reason }, ctx);
    }
    if (input.action === 'rollback') {
      if (!input.targetDeploymentId) throw required('targetDeploymentId', 'rollback');
      const { target, snapshot } = await this.rollbacks.replay(
        service,
        input.targetDeploymentId,
        { name: 'requestApproval', ...REQUEST_APPROVAL },
        ctx,
      );
      const payload = { serviceId: service.id, targetDeploymentId: target.id };
      return this.requests.ask(
        { service, imageRef: target.imageRef, snapshot },
        { action: 'rollback', payload, reason },
        ctx,
      );
    }
    return this.restore(service, input, ctx);
  }

  /** A restore runs the service's restore command (or a volume's script) on its server. */
  private async restore(
    service: ServiceDoc,
    input: RequestApprovalInput,
    ctx: RequestContext,
  ): Promise<PendingApproval> {
    if (!input.backupId) throw required('backupId', 'restore');
    const backup = await this.lookup.backup(input.backupId);
    if (backup.serviceId !== service.id) throw conflict('The backup belongs to another service');
    const volume = backup.volume ?? null;
    const command = volume ? null : (service.restoreCommand ?? null);
    const payload = {
      serviceId: service.id,
      backupId: backup.id,
      volume,
      serverId: service.serverId,
      restoreCommand: command,
      basis: restoreBasis(service, volume),
    };
    return this.approvals.open('restore', service.id, payload, input.reason, ctx);
  }
}
