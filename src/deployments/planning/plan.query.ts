import { Inject, Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { configDiff } from './config-diff.js';
import type { Plan } from './plan.js';
import { Planner } from './planner.js';
import { Omittable } from '../../common/omittable.js';
import { ComposeText, ImageReference } from '../deployment-fields.js';
import { sameSecretValue } from '../env-vars.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';

export class DeploymentPlanInput {
  @IsUUID()
  serviceId!: string;

  @ImageReference()
  imageTag!: string;
}

export class ComposeDeploymentPlanInput {
  @IsUUID()
  serverId!: string;

  @ComposeText()
  compose!: string;
}

export class RollbackPlanInput {
  @IsUUID()
  serviceId!: string;

  @Omittable()
  @IsUUID()
  targetDeploymentId?: string;
}

export class BackupRestorePlanInput {
  @IsUUID()
  backupId!: string;
}

export class ConfigDiffInput {
  @IsUUID()
  fromDeploymentId!: string;

  @IsUUID()
  toDeploymentId!: string;
}

export type PlanRequest =
  | { kind: 'deploy'; serviceId: string; imageTag: string }
  | { kind: 'compose'; serverId: string; compose: string }
  | { kind: 'rollback'; serviceId: string; targetDeploymentId?: string }
  | { kind: 'restore'; backupId: string }
  | { kind: 'diff'; fromDeploymentId: string; toDeploymentId: string };

@Injectable()
export class PlanHandler {
  constructor(
    private readonly planner: Planner,
    private readonly lookup: DeploymentLookup,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute(r: PlanRequest, ctx: RequestContext): Promise<Plan> {
    switch (r.kind) {
      case 'deploy':
        return this.planner.deploymentPlan(r.serviceId, r.imageTag, ctx);
      case 'compose':
        return this.planner.composeDeploymentPlan(r.serverId, r.compose, ctx);
      case 'rollback':
        return this.planner.rollbackPlan(r.serviceId, r.targetDeploymentId, ctx);
      case 'restore':
        return this.planner.backupRestorePlan(r.backupId, ctx);
      case 'diff':
        return configDiff(
          await this.lookup.deployment(r.fromDeploymentId),
          await this.lookup.deployment(r.toDeploymentId),
          (a, b) => sameSecretValue(this.box, a, b),
        );
    }
  }
}
