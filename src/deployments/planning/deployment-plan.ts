import { imageRefFor } from '../deployment-launcher.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { approvalRequired } from '../approval-rules.js';
import { validateCompose } from '../compose.js';
import { judgingVariables } from '../compose-reading/compose-variables.js';
import { ImageReference } from '../deployment-fields.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { formatImageReference, parseImageReference } from '../image-reference.js';
import { ok, plan, shellArg, type Plan } from './plan.js';
import { Planner } from './planner.js';
import { deploySteps, domainCheck, strategyCheck } from './strategy-checks.js';
import {
  approvalCheck,
  composeChecks,
  envChecks,
  imageChecks,
  queueCheck,
  serverChecks,
} from './preflight-checks.js';

export class DeploymentPlanInput {
  @IsUUID()
  serviceId!: string;

  /** An image reference with a tag or digest, or a tag alone (of the service's repository). */
  @ImageReference()
  imageTag!: string;
}

export class DeploymentPlan extends ProcedureQuery<DeploymentPlanInput, Plan> {}

/** What `triggerDeploy` with the same input would check and do. */
@Procedure.planning(DeploymentPlan, {
  name: 'deploymentPlan',
  roles: DEPLOYERS,
  scopes: ['deploy:plan'],
  input: DeploymentPlanInput,
  description: 'Preflight checks and steps for deploying an image to a service; no side effects.',
  project: { service: 'serviceId' },
})
export class DeploymentPlanHandler implements IQueryHandler<DeploymentPlan> {
  constructor(
    private readonly planner: Planner,
    private readonly lookup: DeploymentLookup,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ input, ctx }: DeploymentPlan): Promise<Plan> {
    const service = await this.lookup.service(input.serviceId);
    const needsApproval = approvalRequired(service.approvalRule, ctx.principal!);
    // As triggerDeploy reads it (a tag alone is the service's repository's); else as given,
    // for the image check to say what is wrong with it.
    let imageRef = input.imageTag;
    try {
      imageRef = imageRefFor(input.imageTag, service.imageRepository);
    } catch {
      const ref = parseImageReference(input.imageTag);
      if (ref) imageRef = formatImageReference(ref);
    }
    const server = await this.planner.serverOrNull(service.serverId);
    const checks = [
      ok('service-exists', `${service.name} (${service.environment})`),
      ...serverChecks(server),
      ...(await this.planner.reachability(server, ctx)),
      ...imageChecks(imageRef, service),
      ...composeChecks(
        validateCompose(service.compose, judgingVariables(service.env)),
        service.imageRepository,
      ),
      ...this.planner.policyChecks(service.compose, server, service.env),
      strategyCheck(service.compose, service.routes ?? [], service.env),
      ...(await domainCheck(service.routes ?? [], server)),
      ...envChecks(service.env, this.box),
      queueCheck(await this.planner.activeCount(service.id)),
      approvalCheck(needsApproval, service.approvalRule),
    ];
    return plan(
      checks,
      deploySteps(service.compose, service.routes ?? [], service.env),
      needsApproval,
      `slipway deploy ${service.id} ${shellArg(imageRef)} --yes`,
    );
  }
}
