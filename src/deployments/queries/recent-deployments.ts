import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn, IsUUID } from 'class-validator';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import {
  READ_STORE,
  type Filter,
  type Page,
  type ReadStore,
} from '../../readstore/read-store.port.js';
import { deploymentSummary, type DeploymentSummary } from '../deployment-views.js';

export class RecentDeploymentsInput {
  @PageLimit(100)
  limit?: number;

  @Omittable()
  @IsIn(['queued', 'running', 'succeeded', 'failed', 'cancelled'])
  status?: string;

  @Omittable()
  @IsUUID()
  serviceId?: string;

  @PageCursor()
  cursor?: string;
}

export class RecentDeployments extends ProcedureQuery<
  RecentDeploymentsInput,
  Page<DeploymentSummary>
> {}

/** Newest first; filter by status and service; cursor paging. */
@Procedure.read(RecentDeployments, {
  name: 'recentDeployments',
  roles: EVERYONE,
  scopes: ['deploy:read'],
  input: RecentDeploymentsInput,
  description: 'Deployments, newest first: {limit 1-100 (20), status?, serviceId?, cursor?}.',
})
export class RecentDeploymentsHandler implements IQueryHandler<RecentDeployments> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ input }: RecentDeployments): Promise<Page<DeploymentSummary>> {
    const filter: Filter = {};
    if (input.status) filter.status = input.status;
    if (input.serviceId) filter.serviceId = input.serviceId;
    const page = await this.reads
      .collection<DeploymentDoc>('deployments')
      .find(filter, { sort: { order: -1 }, limit: input.limit ?? 20, cursor: input.cursor });
    return { items: page.items.map(deploymentSummary), nextCursor: page.nextCursor };
  }
}
