import { IsUUID } from 'class-validator';
import type { ICommandHandler } from '@nestjs/cqrs';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import type { PendingApproval } from '../approval-requests.js';
import { ImageReference, Reason } from '../deployment-fields.js';
import {
  checkRepository,
  imageRefFor,
  type QueuedDeploymentAnswer,
} from '../deployment-launcher.js';
import { DeploymentRequests } from '../deployment-requests.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { requestDeploy } from './deploy-request.js';
import { overrideSnapshot, type DeploymentOverride } from './deployment-override.js';

export class TriggerDeployInput {
  @IsUUID()
  serviceId!: string;

  /** Image reference with a tag or digest, e.g. ghcr.io/acme/api:1.4.2, or a tag alone (1.4.2). */
  @ImageReference()
  imageTag!: string;

  /** Used when the service's approval rule turns the trigger into an approval request. */
  @Omittable()
  @Reason()
  reason?: string;
}

/**
 * Deploy an image of a service. `override`: what a compose intake brings instead of the
 * service's own compose, files, env and context (the intake and deploy hooks send it too).
 */
export class TriggerDeploy extends ProcedureCommand<
  TriggerDeployInput,
  QueuedDeploymentAnswer | PendingApproval
> {
  constructor(
    input: TriggerDeployInput,
    ctx: RequestContext,
    readonly override?: DeploymentOverride,
  ) {
    super(input, ctx);
  }
}

/**
 * The service's settings are folded from its stream; the launcher checks that it can run
 * (before an approval is asked for, too: nobody should approve what cannot run), and the
 * service's deployment queue stream decides (a closed queue, an archived service, refuses).
 */
@Procedure.command(TriggerDeploy, {
  name: 'triggerDeploy',
  roles: DEPLOYERS,
  scopes: ['deploy:start'],
  input: TriggerDeployInput,
  description:
    'Queues a deployment (FIFO per service), or opens an approval when the service rule requires one. Honours Idempotency-Key.',
  project: { service: 'serviceId' },
})
export class TriggerDeployHandler implements ICommandHandler<TriggerDeploy> {
  constructor(
    private readonly facts: StreamFacts,
    private readonly requests: DeploymentRequests,
  ) {}

  async execute({
    input,
    ctx,
    override,
  }: TriggerDeploy): Promise<QueuedDeploymentAnswer | PendingApproval> {
    const service = await this.facts.service(input.serviceId);
    const imageRef = imageRefFor(input.imageTag, service.imageRepository);
    checkRepository(imageRef, service.imageRepository);
    const snapshot = override ? overrideSnapshot(service, imageRef, override) : undefined;
    const intake = override && {
      digest: override.digest,
      files: override.files.map((f) => f.path),
      contextUploadId: override.context?.uploadId ?? null,
    };
    return requestDeploy(
      this.requests,
      { service, imageRef, snapshot, overrideDigest: override?.digest },
      {
        payload: { serviceId: service.id, imageRef, ...(intake ? { intake, snapshot } : {}) },
        reason:
          input.reason ??
          `Deploy ${imageRef} to ${service.name} (${service.environment})${override ? ' from a compose intake' : ''}`,
      },
      ctx,
    );
  }
}
