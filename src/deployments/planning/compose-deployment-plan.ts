import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { badRequest } from '../../common/app-error.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { validateCompose } from '../compose.js';
import { ComposeText } from '../deployment-fields.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { parseImageReference, repositoryOf } from '../image-reference.js';
import { plan, shellArg, warn, type Plan } from './plan.js';
import { DEPLOY_STEPS, Planner } from './planner.js';
import { composeChecks, serverChecks } from './preflight-checks.js';

export class ComposeDeploymentPlanInput {
  @IsUUID()
  serverId!: string;

  @ComposeText()
  compose!: string;
}

export class ComposeDeploymentPlan extends ProcedureQuery<ComposeDeploymentPlanInput, Plan> {}

/**
 * Running a compose definition on a server: registering it as a service, or updating the
 * service that already runs it there.
 */
@Procedure.planning(ComposeDeploymentPlan, {
  name: 'composeDeploymentPlan',
  roles: DEPLOYERS,
  scopes: ['deploy:plan'],
  input: ComposeDeploymentPlanInput,
  description: 'Preflight checks for running a compose definition on a server; no side effects.',
  project: { server: 'serverId' },
})
export class ComposeDeploymentPlanHandler implements IQueryHandler<ComposeDeploymentPlan> {
  constructor(
    private readonly planner: Planner,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input, ctx }: ComposeDeploymentPlan): Promise<Plan> {
    const { serverId, compose } = input;
    // A service not registered yet has no variables: what the file reads is unset (empty).
    const summary = validateCompose(compose, new Map());
    // Over the limits it was never parsed: that is bad input, not a failed check of a plan.
    if (!summary.ok && summary.overLimits) {
      throw badRequest('The compose definition is over the limits', summary.issues);
    }
    const server = await this.planner.serverOrNull(serverId);
    const checks = [
      ...serverChecks(server),
      ...(await this.planner.reachability(server, ctx)),
      ...composeChecks(summary, null),
      ...this.planner.policyChecks(compose, server, []),
    ];
    const first = summary.ok ? summary.summary.services[0] : null;
    const ref = first?.image ? parseImageReference(first.image) : null;
    const name = first?.name.toLowerCase();
    const existing = await this.existingService(serverId, compose, name);
    if (existing) {
      // Registering again would be refused: what the user wants is to change the service.
      checks.push(
        warn(
          'service-exists',
          `${existing.name}@${existing.environment} (${existing.id}) already exists on this server: update it instead`,
        ),
      );
      return plan(
        checks,
        ['update the service with this compose definition', ...DEPLOY_STEPS],
        false,
        `slipway services update ${existing.id} --compose-file compose.yaml --yes`,
      );
    }
    const steps = ['register the compose definition as a service on this server', ...DEPLOY_STEPS];
    const command =
      name && ref
        ? `slipway services register --server ${serverId} --name ${shellArg(name)} --environment production --image-repository ${shellArg(repositoryOf(ref))} --compose-file compose.yaml --yes`
        : `slipway services register --server ${serverId} --compose-file compose.yaml --yes`;
    return plan(checks, steps, false, command);
  }

  /** A service of the server with the same compose text, or named as the Run line would name it. */
  private async existingService(
    serverId: string,
    compose: string,
    name: string | undefined,
  ): Promise<ServiceDoc | null> {
    const { items } = await this.lookup.reads
      .collection<ServiceDoc>('services')
      .find({ serverId }, { limit: 1000 });
    return items.find((s) => s.compose === compose) ?? items.find((s) => s.name === name) ?? null;
  }
}
