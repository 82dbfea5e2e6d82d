import { Inject, Injectable } from '@nestjs/common';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { badRequest } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { approvalRequired } from '../approval-rules.js';
import { ComposePolicyGuard } from '../compose-policy/compose-policy.guard.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { validateCompose } from '../compose.js';
import { parseImageReference, repositoryOf, formatImageReference } from '../image-reference.js';
import { reportFor } from '../reach/connection-report.js';
import { ServerReach } from '../reach/server-reach.js';
import { fail, ok, plan, RETENTION_DAYS, shellArg, warn, type Plan } from './plan.js';
import {
  approvalCheck,
  composeChecks,
  composePolicyCheck,
  envChecks,
  imageChecks,
  queueCheck,
  reachabilityCheck,
  serverChecks,
} from './preflight-checks.js';

const DEPLOY_STEPS = [
  'write the frozen compose file to a directory of its own on the server',
  'docker compose pull',
  'docker compose up -d --remove-orphans',
  'health check: container state, and the HTTP probe when the service defines one',
  'record the running image digest',
];

/**
 * The planning lane: previews from the read models only; nothing is appended. The one look
 * outside them is `server-reachable`: a key exchange with the server (no login, nothing run).
 */
@Injectable()
export class Planner {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly policy: ComposePolicyGuard,
    private readonly reach: ServerReach,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private async serverOrNull(id: string): Promise<ServerDoc | null> {
    return (await this.lookup.reads.collection<ServerDoc>('servers').get(id)) ?? null;
  }

  private async activeCount(serviceId: string): Promise<number> {
    return this.lookup.reads
      .collection('deployments')
      .count({ serviceId, status: { $in: ['queued', 'running'] } });
  }

  /** The compose policy check, when there is a server to hold the compose to. */
  private policyChecks(compose: string, server: ServerDoc | null) {
    return server ? [composePolicyCheck(this.policy.refusals(compose, server), server)] : [];
  }

  /** Does SSH answer with the pinned host key (unless server checks are off)? */
  private async reachability(server: ServerDoc | null, ctx: RequestContext) {
    if (!server) return [];
    if (!this.reach.enabled) return [reachabilityCheck(null)];
    return [reachabilityCheck(reportFor(await this.reach.check(server, 'handshake'), ctx))];
  }

  async deploymentPlan(serviceId: string, imageTag: string, ctx: RequestContext): Promise<Plan> {
    const service = await this.lookup.service(serviceId);
    const needsApproval = approvalRequired(service.approvalRule, ctx.principal!);
    const ref = parseImageReference(imageTag);
    const imageRef = ref ? formatImageReference(ref) : imageTag;
    const server = await this.serverOrNull(service.serverId);
    const checks = [
      ok('service-exists', `${service.name} (${service.environment})`),
      ...serverChecks(server),
      ...(await this.reachability(server, ctx)),
      ...imageChecks(imageRef, service),
      ...composeChecks(service.compose, service.imageRepository),
      ...this.policyChecks(service.compose, server),
      ...envChecks(service.env, this.box),
      queueCheck(await this.activeCount(service.id)),
      approvalCheck(needsApproval, service.approvalRule),
    ];
    return plan(
      checks,
      DEPLOY_STEPS,
      needsApproval,
      `slipway deploy ${service.id} ${shellArg(imageRef)} --yes`,
    );
  }

  async composeDeploymentPlan(
    serverId: string,
    compose: string,
    ctx: RequestContext,
  ): Promise<Plan> {
    const summary = validateCompose(compose);
    // Over the limits it was never parsed: that is bad input, not a failed check of a plan.
    if (!summary.ok && summary.overLimits) {
      throw badRequest('The compose definition is over the limits', summary.issues);
    }
    const server = await this.serverOrNull(serverId);
    const checks = [
      ...serverChecks(server),
      ...(await this.reachability(server, ctx)),
      ...composeChecks(summary, null),
      ...this.policyChecks(compose, server),
    ];
    const first = summary.ok ? summary.summary.services[0] : null;
    const ref = first ? parseImageReference(first.image) : null;
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

  async rollbackPlan(
    serviceId: string,
    targetDeploymentId: string | undefined,
    ctx: RequestContext,
  ): Promise<Plan> {
    const service = await this.lookup.service(serviceId);
    const needsApproval = approvalRequired(service.approvalRule, ctx.principal!);
    const target = targetDeploymentId
      ? await this.lookup.deployment(targetDeploymentId)
      : await this.previousSucceeded(service.id, service.currentDeploymentId);
    const server = await this.serverOrNull(service.serverId);
    const checks = [
      ok('service-exists', `${service.name} (${service.environment})`),
      ...serverChecks(server),
    ];
    if (!target) {
      checks.push(fail('rollback-target', 'no earlier succeeded deployment to roll back to'));
      return plan(checks, [], needsApproval, `slipway deployments list --service ${service.id}`);
    }
    const ageDays =
      (this.clock.now().getTime() - Date.parse(target.finishedAt ?? target.createdAt)) / 86_400_000;
    checks.push(
      ...(await this.reachability(server, ctx)),
      target.serviceId !== service.id
        ? fail('rollback-target', 'the target belongs to another service')
        : ok('rollback-target', `${target.id} (${target.imageRef})`),
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
      ...this.policyChecks(target.snapshot.compose, server),
      queueCheck(await this.activeCount(service.id)),
      approvalCheck(needsApproval, service.approvalRule),
    );
    return plan(
      checks,
      ['replay the target deployment’s frozen snapshot', ...DEPLOY_STEPS.slice(1)],
      needsApproval,
      `slipway rollback ${service.id} ${target.id} --yes`,
    );
  }

  async backupRestorePlan(backupId: string, ctx: RequestContext): Promise<Plan> {
    const backup = await this.lookup.backup(backupId);
    const service = await this.lookup.service(backup.serviceId);
    const needsApproval = approvalRequired(service.approvalRule, ctx.principal!);
    const checks = [
      ok(
        'backup-exists',
        `${backup.location} (${backup.sizeBytes} bytes, taken ${backup.takenAt})`,
      ),
      service.restoreCommand
        ? ok('restore-command', service.restoreCommand)
        : warn('restore-command', 'the service defines no restore command yet (updateService)'),
      /^sha256:[a-f0-9]{64}$/.test(backup.checksum)
        ? ok('checksum-present', backup.checksum)
        : fail('checksum-present', 'the backup has no usable checksum'),
      ...serverChecks(await this.serverOrNull(service.serverId)),
      queueCheck(await this.activeCount(service.id)),
      approvalCheck(
        true,
        needsApproval ? service.approvalRule : 'restores are always approved by a second person',
      ),
    ];
    const steps = [
      'read the artifact Slipway holds',
      'verify its SHA-256 against the recorded checksum (a mismatch refuses the restore)',
      'connect to the server with its pinned host key',
      "run the service's restore command with the artifact on its standard input",
    ];
    const reason = shellArg(`Restore ${service.name} from backup ${backup.id}`);
    return plan(
      checks,
      steps,
      true,
      `slipway approvals request --action restore --service ${service.id} --backup ${backup.id} --reason ${reason} --yes`,
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
