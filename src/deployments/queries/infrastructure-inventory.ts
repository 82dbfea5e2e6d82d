import { inProjects } from '../../readstore/read-page.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import {
  deploymentSummary,
  serverView,
  serviceView,
  type DeploymentSummary,
  type ServerView,
  type ServiceView,
} from '../deployment-views.js';

export type ServiceHealth = 'never-deployed' | 'degraded' | 'healthy' | 'deploying';

export interface InventoryService extends ServiceView {
  latestDeployment: DeploymentSummary | null;
  health: ServiceHealth;
}

export interface InfrastructureInventoryAnswer {
  servers: (ServerView & { services: InventoryService[] })[];
  totals: { servers: number; services: number; serversAwaitingHostKeyApproval: number };
}

export class InfrastructureInventory extends ProcedureQuery<
  undefined,
  InfrastructureInventoryAnswer
> {}

/** What the latest deployment says of a service (a cancelled one: what ran before it). */
function healthOf(service: ServiceDoc, latest: DeploymentDoc | null): ServiceHealth {
  if (!latest) return 'never-deployed';
  switch (latest.status) {
    case 'failed':
      return 'degraded';
    case 'succeeded':
      return 'healthy';
    case 'cancelled':
      return service.currentDeploymentId ? 'healthy' : 'never-deployed';
    default:
      return 'deploying';
  }
}

/** Servers and their services, each with its current and latest deployment and a health word. */
@Procedure.read(InfrastructureInventory, {
  name: 'infrastructureInventory',
  roles: EVERYONE,
  readModelsOnly: true,
  projectList: true,
  scopes: ['server:read'],
  description: 'Servers and their services, each with its latest deployment and health.',
})
export class InfrastructureInventoryHandler implements IQueryHandler<InfrastructureInventory> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ ctx }: InfrastructureInventory): Promise<InfrastructureInventoryAnswer> {
    const where = inProjects(ctx.readableProjects);
    const servers = (
      await this.reads
        .collection<ServerDoc>('servers')
        .find(where, { sort: { name: 1 }, limit: 1000 })
    ).items;
    const services = (
      await this.reads
        .collection<ServiceDoc>('services')
        .find(where, { sort: { name: 1 }, limit: 1000 })
    ).items;
    const deployments = this.reads.collection<DeploymentDoc>('deployments');
    const serviceViews = await Promise.all(
      services.map(async (s): Promise<InventoryService> => {
        const latest =
          (await deployments.find({ serviceId: s.id }, { sort: { order: -1 }, limit: 1 }))
            .items[0] ?? null;
        return {
          ...serviceView(s),
          latestDeployment: latest ? deploymentSummary(latest) : null,
          health: healthOf(s, latest),
        };
      }),
    );
    return {
      servers: servers.map((server) => ({
        ...serverView(server),
        services: serviceViews.filter((s) => s.serverId === server.id),
      })),
      totals: {
        servers: servers.length,
        services: services.length,
        serversAwaitingHostKeyApproval: servers.filter((s) => !s.hostKeyApproved).length,
      },
    };
  }
}
