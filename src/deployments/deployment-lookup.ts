import { Inject, Injectable } from '@nestjs/common';
import type { ApprovalDoc } from '../../projections/approvals.projection.js';
import type { BackupDoc } from '../../projections/backups.projection.js';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { ServerDoc } from '../../projections/servers.projection.js';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { notFound } from '../common/app-error.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';

/** Read-model lookups of the deployments context; an unknown id is NOT_FOUND. */
@Injectable()
export class DeploymentLookup {
  constructor(@Inject(READ_STORE) readonly reads: ReadStore) {}

  private async get<T extends { id: string }>(
    collection: string,
    id: string,
    what: string,
  ): Promise<T> {
    const doc = await this.reads.collection(collection).get(id);
    if (!doc) throw notFound(`No such ${what}`);
    return doc as unknown as T;
  }

  server = (id: string) => this.get<ServerDoc>('servers', id, 'server');
  service = (id: string) => this.get<ServiceDoc>('services', id, 'service');
  deployment = (id: string) => this.get<DeploymentDoc>('deployments', id, 'deployment');
  approval = (id: string) => this.get<ApprovalDoc>('approvals', id, 'approval request');
  backup = (id: string) => this.get<BackupDoc>('backups', id, 'backup');
}
