import { Inject, Injectable } from '@nestjs/common';
import { IsIn, IsUUID } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { badRequest, conflict } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { ApprovalRequests, type PendingApproval } from '../approval-requests.js';
import { approvalDecider } from '../approval.decider.js';
import { DeploymentLauncher, validImageRef } from '../deployment-launcher.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { approvalStream, type DeploymentSnapshot } from '../../events/deployments.events.js';
import { Omittable } from '../../common/omittable.js';
import { ImageReference, Note, Reason } from '../deployment-fields.js';
import { checkRepository } from './deploy.handlers.js';

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

/** The snapshot a compose intake froze in its approval request, if it is one. */
function frozenSnapshot(payload: Record<string, unknown>): DeploymentSnapshot | undefined {
  const snapshot = payload.snapshot;
  return snapshot && typeof snapshot === 'object' ? (snapshot as DeploymentSnapshot) : undefined;
}

/** Asks for approval of a deploy, rollback or restore, with its payload checked and frozen. */
@Injectable()
export class RequestApprovalHandler {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly approvals: ApprovalRequests,
  ) {}

  async execute(input: RequestApprovalInput, ctx: RequestContext): Promise<PendingApproval> {
    const service = await this.lookup.service(input.serviceId);
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

export class DecideApprovalInput {
  @IsUUID()
  approvalId!: string;

  @Omittable()
  @Note()
  note?: string;
}

/**
 * Approve or reject someone else's request (never one filed by yourself or by an agent you
 * created or hold a token of: the decider's two-humans rule). An approved deploy or rollback runs its frozen
 * payload exactly once (idempotency key `approval:<id>`); approving again retries a stalled run.
 */
@Injectable()
export class DecideApprovalHandler {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly runner: DeciderRunner,
    private readonly launcher: DeploymentLauncher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(
    input: DecideApprovalInput,
    approve: boolean,
    ctx: RequestContext,
  ): Promise<{
    approvalId: string;
    status: string;
    deploymentId: string | null;
  }> {
    const approval = await this.lookup.approval(input.approvalId);
    await this.runner.run(
      approvalStream(approval.id),
      approvalDecider,
      {
        kind: 'decide',
        approvalId: approval.id,
        approve,
        decidedBy: ctx.principal!.id,
        deciderKind: ctx.principal!.kind,
        requesterControllers: await this.lookup.controllersOf(approval.requestedBy),
        note: input.note ?? null,
        now: this.clock.now().getTime(),
      },
      ctx,
    );
    if (!approve) return { approvalId: approval.id, status: 'rejected', deploymentId: null };
    if (approval.action === 'restore')
      return { approvalId: approval.id, status: 'approved', deploymentId: null };
    const service = await this.lookup.service(approval.serviceId);
    const target =
      approval.action === 'rollback'
        ? await this.lookup.deployment(String(approval.payload.targetDeploymentId))
        : null;
    const { deploymentId } = await this.launcher.launch(
      {
        service,
        imageRef: target ? target.imageRef : String(approval.payload.imageRef),
        trigger: target ? 'rollback' : 'approval',
        requestedBy: approval.requestedBy,
        snapshot: target?.snapshot ?? frozenSnapshot(approval.payload),
        rollbackOf: target?.id ?? null,
        approvalId: approval.id,
        idempotencyKey: `approval:${approval.id}`,
      },
      ctx,
    );
    await this.runner.run(
      approvalStream(approval.id),
      approvalDecider,
      { kind: 'executed', approvalId: approval.id, deploymentId },
      ctx,
    );
    return { approvalId: approval.id, status: 'approved', deploymentId };
  }
}
