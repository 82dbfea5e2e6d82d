import { ServicesInProjects } from '../services-in-projects.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn, IsUUID } from 'class-validator';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type Page, type ReadStore } from '../../readstore/read-store.port.js';
import { readPage, whereGiven } from '../../readstore/read-page.js';
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
  readModelsOnly: true,
  scopes: ['deploy:read'],
  projectList: true,
  input: RecentDeploymentsInput,
  description: 'Deployments, newest first: {limit 1-100 (20), status?, serviceId?, cursor?}.',
})
export class RecentDeploymentsHandler implements IQueryHandler<RecentDeployments> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly inProjects: ServicesInProjects,
  ) {}

  async execute({ input, ctx }: RecentDeployments): Promise<Page<DeploymentSummary>> {
    const filter = {
      ...(await this.inProjects.filter(ctx.readableProjects, input.serviceId)),
      ...whereGiven({ status: input.status }),
    };
    return readPage(
      this.reads.collection<DeploymentDoc>('deployments'),
      { filter, sort: { order: -1 }, defaultLimit: 20 },
      input,
      deploymentSummary,
    );
  }
}
