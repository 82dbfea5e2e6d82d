import type { DeployHookDoc } from '../../projections/deploy-hooks.projection.js';
import { Inject, Injectable } from '@nestjs/common';
import type { ApiTokenDoc } from '../../projections/api-tokens.projection.js';
import type { ApprovalDoc } from '../../projections/approvals.projection.js';
import type { BackupDoc } from '../../projections/backups.projection.js';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { PrincipalDoc } from '../../projections/principals.projection.js';
import type { ServerDoc } from '../../projections/servers.projection.js';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { notFound } from '../common/app-error.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import type { Requester } from '../events/deployments.events.js';
import { serviceGitStream } from '../events/git-sources.events.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { gitSourceSetters } from './git/git-source-setters.js';

/**
 * Read-model lookups of the deployments context; an unknown id is NOT_FOUND. Who controls a
 * service's git source webhook is read from that source's own stream.
 */
@Injectable()
export class DeploymentLookup {
  constructor(
    @Inject(READ_STORE) readonly reads: ReadStore,
    private readonly runner: DeciderRunner,
  ) {}

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

  /**
   * The humans who control a requester besides itself: for an agent, the user who created it
   * and the user who minted the token it presented (who holds its value); for an inbound deploy
   * hook, its creator; for a service's git source webhook (which acts as the service's id),
   * everyone who set that source.
   */
  async controllersOf(requester: Requester): Promise<string[]> {
    if (requester.kind !== 'agent') return [];
    if (requester.authMethod === 'hook') {
      // An inbound deploy hook acts as itself: its creator controls it.
      const hook = await this.reads
        .collection<DeployHookDoc>('deploy_hooks')
        .get(requester.principalId);
      if (hook) return hook.createdBy ? [hook.createdBy] : [];
      // Else a git source's webhook, acting as its service: whoever set the source controls it.
      return [
        ...(await this.runner.load(serviceGitStream(requester.principalId), gitSourceSetters)),
      ];
    }
    const agent = await this.reads
      .collection<PrincipalDoc>('principals')
      .get(requester.principalId);
    const token = requester.tokenId
      ? await this.reads.collection<ApiTokenDoc>('api_tokens').get(requester.tokenId)
      : null;
    const ids = [agent?.createdBy, token?.createdBy].filter((id): id is string => !!id);
    return [...new Set(ids)];
  }
}
