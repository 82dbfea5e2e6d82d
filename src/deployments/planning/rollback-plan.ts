import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { approvalRequired } from '../approval-rules.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { fail, ok, plan, RETENTION_DAYS, warn, type Plan } from './plan.js';
import { Planner } from './planner.js';
import { deploySteps, strategyCheck } from './strategy-checks.js';
import { approvalCheck, queueCheck, serverChecks } from './preflight-checks.js';

export class RollbackPlanInput {
  @IsUUID()
  serviceId!: string;

  @Omittable()
  @IsUUID()
  targetDeploymentId?: string;
}

export class RollbackPlan extends ProcedureQuery<RollbackPlanInput, Plan> {}

/** What `executeRollback` would check and do: replay a succeeded deployment's frozen snapshot. */
@Procedure.planning(RollbackPlan, {
  name: 'rollbackPlan',
  roles: DEPLOYERS,
  scopes: ['deploy:plan'],
  input: RollbackPlanInput,
  description:
    'Preflight checks for rolling back (default target: the previous succeeded deployment).',
  project: { service: 'serviceId' },
})
export class RollbackPlanHandler implements IQueryHandler<RollbackPlan> {
  constructor(
    private readonly planner: Planner,
    private readonly lookup: DeploymentLookup,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, ctx }: RollbackPlan): Promise<Plan> {
    const service = await this.lookup.service(input.serviceId);
    const needsApproval = approvalRequired(service.approvalRule, ctx.principal!);
    const target = input.targetDeploymentId
      ? await this.lookup.deployment(input.targetDeploymentId)
      : await this.previousSucceeded(service.id, service.currentDeploymentId);
    const server = await this.planner.serverOrNull(service.serverId);
    const checks = [
      ok('service-exists', `${service.name} (${service.environment})`),
      ...serverChecks(server),
    ];
    if (!target) {
      checks.push(fail('rollback-target', 'no earlier succeeded deployment to roll back to'));
      return plan(checks, [], needsApproval, `slipway deployments list --service ${service.id}`);
    }
    // Nothing of another service's deployment is read further: it may live in a project the
    // caller has no role in (executeRollback stops here too).
    if (target.serviceId !== service.id) {
      checks.push(fail('rollback-target', 'the target belongs to another service'));
      return plan(checks, [], needsApproval, `slipway deployments list --service ${service.id}`);
    }
    const ageDays =
      (this.clock.now().getTime() - Date.parse(target.finishedAt ?? target.createdAt)) / 86_400_000;
    checks.push(
      ...(await this.planner.reachability(server, ctx)),
      ok('rollback-target', `${target.id} (${target.imageRef})`),
      target.status === 'succeeded'
        ? ok('target-succeeded', `finished ${target.finishedAt}`)
        : fail('target-succeeded', `the target ${target.status}`),
      ageDays <= RETENTION_DAYS
        ? ok('within-retention', `${Math.floor(ageDays)} of ${RETENTION_DAYS} days`)
        : fail(
            'within-retention',
            `${Math.floor(ageDays)} days old; retention is ${RETENTION_DAYS} days`,
          ),
      target.id === service.currentDeploymentId
        ? warn('already-current', 'the target is what runs now')
        : ok('already-current', `replaces ${service.currentImage ?? 'nothing'}`),
      // The frozen compose is held to what the server allows now, as the rollback itself is.
      ...this.planner.policyChecks(target.snapshot.compose, server, target.snapshot.env),
      strategyCheck(target.snapshot.compose, target.snapshot.routes ?? [], target.snapshot.env),
      queueCheck(await this.planner.activeCount(service.id)),
      approvalCheck(needsApproval, service.approvalRule),
    );
    return plan(
      checks,
      [
        'replay the target deployment’s frozen snapshot',
        ...deploySteps(
          target.snapshot.compose,
          target.snapshot.routes ?? [],
          target.snapshot.env,
        ).slice(1),
      ],
      needsApproval,
      `slipway rollback ${service.id} ${target.id} --yes`,
    );
  }

  private async previousSucceeded(
    serviceId: string,
    currentId: string | null,
  ): Promise<DeploymentDoc | null> {
    const { items } = await this.lookup.reads
      .collection<DeploymentDoc>('deployments')
      .find({ serviceId, status: 'succeeded' }, { sort: { order: -1 }, limit: 2 });
    return items.find((d) => d.id !== currentId) ?? null;
  }
}
