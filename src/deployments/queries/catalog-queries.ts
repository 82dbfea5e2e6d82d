import { Inject, Injectable } from '@nestjs/common';
import { IsIn, IsUUID } from 'class-validator';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { deploymentSummary, serverView, serviceView } from '../deployment-views.js';

export class ServicesInput {
  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;

  @Omittable()
  @IsUUID()
  serverId?: string;

  @Omittable()
  @IsIn(['active', 'archived'])
  status?: 'active' | 'archived';
}

export class ServersInput {
  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;

  @Omittable()
  @IsIn(['pending-host-key', 'ready', 'decommissioned'])
  status?: 'pending-host-key' | 'ready' | 'decommissioned';
}

export class ServiceIdInput {
  @IsUUID()
  serviceId!: string;
}

export class ServerIdInput {
  @IsUUID()
  serverId!: string;
}

/**
 * Lists and details of services and servers, from the read models, oldest first and paged
 * (`limit` 1-100, default 20, `cursor`). Secret env values masked; no key, ciphertext or digest.
 */
@Injectable()
export class CatalogQueries {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
  ) {}

  async services(input: ServicesInput) {
    const filter: Filter = {};
    if (input.serverId) filter.serverId = input.serverId;
    if (input.status) filter.status = input.status;
    const page = await this.reads
      .collection<ServiceDoc>('services')
      .find(filter, { sort: { registeredAt: 1 }, limit: input.limit ?? 20, cursor: input.cursor });
    return { items: page.items.map(serviceView), nextCursor: page.nextCursor };
  }

  async serviceDetails(input: ServiceIdInput) {
    const service = await this.lookup.service(input.serviceId);
    const server = await this.reads.collection<ServerDoc>('servers').get(service.serverId);
    const recent = await this.reads
      .collection<DeploymentDoc>('deployments')
      .find({ serviceId: service.id }, { sort: { order: -1 }, limit: 5 });
    const backups = await this.reads
      .collection<BackupDoc>('backups')
      .count({ serviceId: service.id });
    return {
      ...serviceView(service),
      compose: service.compose,
      server: server ? { id: server.id, name: server.name, status: server.status } : null,
      recentDeployments: recent.items.map(deploymentSummary),
      backups,
    };
  }

  async servers(input: ServersInput) {
    const filter: Filter = input.status ? { status: input.status } : {};
    const page = await this.reads
      .collection<ServerDoc>('servers')
      .find(filter, { sort: { registeredAt: 1 }, limit: input.limit ?? 20, cursor: input.cursor });
    return { items: page.items.map(serverView), nextCursor: page.nextCursor };
  }

  async serverDetails(input: ServerIdInput) {
    const server = await this.lookup.server(input.serverId);
    const services = await this.reads
      .collection<ServiceDoc>('services')
      .find({ serverId: server.id }, { sort: { registeredAt: 1 }, limit: 1000 });
    return {
      ...serverView(server),
      services: services.items.map((s) => ({
        id: s.id,
        name: s.name,
        environment: s.environment,
        status: s.status ?? 'active',
        currentImage: s.currentImage,
      })),
    };
  }
}
