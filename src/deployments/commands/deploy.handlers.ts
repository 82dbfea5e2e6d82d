import { Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { badRequest, conflict } from '../../common/app-error.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { ApprovalRequests, type PendingApproval } from '../approval-requests.js';
import { approvalRequired } from '../approval-rules.js';
import { DeploymentLauncher, requesterOf } from '../deployment-launcher.js';
import { assertServiceActive } from '../lifecycle/lifecycle-rules.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import {
  DeploymentCancelled,
  serviceDeploymentsStream,
  type DeploymentContext,
  type DeploymentFile,
  type DeploymentSnapshot,
  type RecordedEnvVar,
} from '../../events/deployments.events.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { Omittable } from '../../common/omittable.js';
import { Note, Reason } from '../deployment-fields.js';
import { DeploymentIdInput } from '../deployment-id.input.js';
import { parseImageReference, repositoryOf } from '../image-reference.js';
import { serviceDeploymentsDecider } from '../service-deployments.decider.js';

/**
 * What a compose intake brings for one deployment instead of the service's own settings: its
 * compose file, files beside it, env (sealed) and an uploaded build context. `digest` sums the
 * request as sent (secrets unsealed), so a repeat is recognised by its idempotency key.
 */
export interface DeploymentOverride {
  compose: string;
  files: DeploymentFile[];
  env: RecordedEnvVar[] | null;
  context: DeploymentContext | null;
  digest: string;
}

/** The snapshot a deployment of `service` freezes with an override (a compose intake). */
export function overrideSnapshot(
  service: ServiceDoc,
  imageRef: string,
  override: DeploymentOverride,
): DeploymentSnapshot {
  return {
    serviceName: service.name,
    environment: service.environment,
    serverId: service.serverId,
    imageRef,
    compose: override.compose,
    env: override.env ?? service.env,
    healthCheckUrl: service.healthCheckUrl,
    files: override.files,
    context: override.context,
  };
}

export interface QueuedDeploymentAnswer {
  status: 'queued';
  deploymentId: string;
  created: boolean;
}

/** The service's image only: a tag of another repository is a mistake, not a deployment. */
export function checkRepository(imageRef: string, repository: string): void {
  const ref = parseImageReference(imageRef)!;
  if (repositoryOf(ref) !== repository) {
    throw badRequest(`imageTag must be an image of ${repository}`, [
      { path: 'imageTag', message: `repository ${repositoryOf(ref)} is not the service's` },
    ]);
  }
}

export class ExecuteRollbackInput {
  @IsUUID()
  serviceId!: string;

  @IsUUID()
  targetDeploymentId!: string;

  @Omittable()
  @Reason()
  reason?: string;
}

/** A new deployment that replays the target's frozen snapshot. */
@Injectable()
export class ExecuteRollbackHandler {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly launcher: DeploymentLauncher,
    private readonly approvals: ApprovalRequests,
  ) {}

  async execute(
    input: ExecuteRollbackInput,
    ctx: RequestContext,
  ): Promise<QueuedDeploymentAnswer | PendingApproval> {
    const service = await this.lookup.service(input.serviceId);
    assertServiceActive(service);
    const target = await this.lookup.deployment(input.targetDeploymentId);
    if (target.serviceId !== service.id)
      throw badRequest('The target deployment belongs to another service', [
        { path: 'targetDeploymentId', message: 'not of this service' },
      ]);
    if (target.status !== 'succeeded')
      throw conflict(
        `Only a succeeded deployment can be rolled back to (this one ${target.status})`,
      );
    if (approvalRequired(service.approvalRule, ctx.principal!)) {
      const reason = input.reason ?? `Roll ${service.name} back to ${target.imageRef}`;
      return this.approvals.open(
        'rollback',
        service.id,
        { serviceId: service.id, targetDeploymentId: target.id },
        reason.slice(0, 280),
        ctx,
      );
    }
    const launched = await this.launcher.launch(
      {
        service,
        imageRef: target.imageRef,
        trigger: 'rollback',
        requestedBy: requesterOf(ctx),
        snapshot: target.snapshot,
        rollbackOf: target.id,
        idempotencyKey: ctx.idempotencyKey,
      },
      ctx,
    );
    return { status: 'queued' as const, ...launched };
  }
}

export class CancelDeploymentInput extends DeploymentIdInput {
  @Omittable()
  @Note()
  reason?: string;
}

/** A queued deployment is cancelled at once; a running one is asked to stop between steps. */
@Injectable()
export class CancelDeploymentHandler {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly runner: DeciderRunner,
  ) {}

  async execute(
    input: CancelDeploymentInput,
    ctx: RequestContext,
  ): Promise<{
    deploymentId: string;
    status: 'cancelled' | 'cancelling';
  }> {
    const deployment = await this.lookup.deployment(input.deploymentId);
    const reason = input.reason ?? `cancelled by ${ctx.principal?.name ?? 'a user'}`;
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
