import { Injectable } from '@nestjs/common';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { AccessService, type AccessTarget } from '../access/access.service.js';
import { badRequest, conflict } from '../common/app-error.js';
import type { DeploymentSnapshot } from '../events/deployments.events.js';
import type { RequestContext } from '../kernel/request-context.js';
import { DeploymentLookup } from './deployment-lookup.js';

/** The rule of the procedure a rollback runs under, judged again where it runs. */
export type RollbackRule = Pick<AccessTarget, 'name' | 'roles' | 'scopes'>;

/**
 * A rollback: a succeeded deployment of the service, replayed on the server the service is on
 * now. Its snapshot's own server is where the service ran then: it may have moved since, and
 * that server may now be another project's, or host other things. Replaying there would start a
 * second copy of the service on a server it left, judged only in the service's project.
 */
@Injectable()
export class RollbackLaunches {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly access: AccessService,
  ) {}

  /**
   * The target checked (a succeeded deployment of this service) and the snapshot a rollback to
   * it runs; the servers it runs and builds on judged in their projects by `rule`.
   */
  async replay(
    service: ServiceDoc,
    targetDeploymentId: string,
    rule: RollbackRule,
    ctx: RequestContext,
  ): Promise<{ target: DeploymentDoc; snapshot: DeploymentSnapshot }> {
    const target = await this.lookup.deployment(targetDeploymentId);
    if (target.serviceId !== service.id)
      throw badRequest('The target deployment belongs to another service', [
        { path: 'targetDeploymentId', message: 'not of this service' },
      ]);
    if (target.status !== 'succeeded')
      throw conflict(
        `Only a succeeded deployment can be rolled back to (this one ${target.status})`,
      );
    const snapshot = { ...target.snapshot, serverId: service.serverId };
    await this.judge(snapshot, rule, ctx);
    return { target, snapshot };
  }

  /** The server a rollback's snapshot runs on, and the one it builds on if any, in their projects. */
  async judge(snapshot: DeploymentSnapshot, rule: RollbackRule, ctx: RequestContext) {
    const servers = new Set([snapshot.serverId, snapshot.git?.buildServerId ?? snapshot.serverId]);
    for (const server of servers) await this.access.alsoIn(rule, ctx, { server });
  }
}
