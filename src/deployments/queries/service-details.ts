import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { namedVolumes } from '../compose-volumes.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { certificatesOf, type CertificateState } from './certificate-state.js';
import {
  deploymentSummary,
  serviceView,
  type DeploymentSummary,
  type ServiceView,
} from '../deployment-views.js';

export class ServiceIdInput {
  @IsUUID()
  serviceId!: string;
}

export interface ServiceDetailsAnswer extends ServiceView {
  compose: string;
  server: Pick<ServerDoc, 'id' | 'name' | 'status'> | null;
  /** The five latest, newest first. */
  recentDeployments: DeploymentSummary[];
  /** How many backups are recorded. */
  backups: number;
  /** The certificates of its domains routed with TLS, as its server's edge proxy holds them. */
  certificates: CertificateState[];
  /** The named volumes its compose file declares (top-level `volumes`): what can be backed up. */
  volumes: string[];
}

export class ServiceDetails extends ProcedureQuery<ServiceIdInput, ServiceDetailsAnswer> {}

/** One service (404 when unknown), with its server, latest deployments and backup count. */
@Procedure.read(ServiceDetails, {
  name: 'serviceDetails',
  roles: EVERYONE,
  scopes: ['service:read'],
  input: ServiceIdInput,
  description:
    'One service: settings (secret env values masked), compose, server, its five latest deployments, how many backups it has, the named volumes its compose file declares, the certificates of its TLS domains (issuer, expiry, last error) and the git repository it follows.',
  project: { service: 'serviceId' },
})
export class ServiceDetailsHandler implements IQueryHandler<ServiceDetails> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input }: ServiceDetails): Promise<ServiceDetailsAnswer> {
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
      certificates: await certificatesOf(this.reads, service),
      volumes: namedVolumes(service.compose) ?? [],
    };
  }
}
