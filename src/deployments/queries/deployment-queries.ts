import { Inject, Injectable } from '@nestjs/common';
import { IsIn, IsInt, IsUUID, Min } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { deploymentSummary, deploymentView } from '../deployment-views.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { DeploymentIdInput } from '../deployment-id.input.js';
import { DeploymentLogStore } from '../deployment-log-store.js';
import { withFailuresFor } from '../reach/connection-failures.js';

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

/** Newest first; filter by status and service; cursor paging. */
@Injectable()
export class RecentDeploymentsHandler {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute(input: RecentDeploymentsInput) {
    const filter: Filter = {};
    if (input.status) filter.status = input.status;
    if (input.serviceId) filter.serviceId = input.serviceId;
    const page = await this.reads
      .collection<DeploymentDoc>('deployments')
      .find(filter, { sort: { order: -1 }, limit: input.limit ?? 20, cursor: input.cursor });
    return { items: page.items.map(deploymentSummary), nextCursor: page.nextCursor };
  }
}

/** Everything about one deployment, and where it stands in its service's queue. */
@Injectable()
export class DeploymentDetailsHandler {
  constructor(private readonly lookup: DeploymentLookup) {}

  async execute(deploymentId: string, ctx: RequestContext) {
    const d = withFailuresFor(await this.lookup.deployment(deploymentId), ctx);
    const ahead =
      d.status === 'queued'
        ? (
            await this.lookup.reads
              .collection<DeploymentDoc>('deployments')
              .find(
                { serviceId: d.serviceId, status: { $in: ['queued', 'running'] } },
                { sort: { order: 1 }, limit: 1000 },
              )
          ).items.filter((x) => x.sequence < d.sequence)
        : [];
    return {
      ...deploymentView(d),
      queue: {
        position: d.status === 'queued' ? ahead.length + 1 : null,
        ahead: ahead.map((x) => x.id),
      },
    };
  }
}

export class DeploymentLogsInput extends DeploymentIdInput {
  @Omittable()
  @IsInt()
  @Min(0)
  afterLine?: number;

  @PageLimit(1000)
  limit?: number;
}

@Injectable()
export class DeploymentLogsHandler {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly logs: DeploymentLogStore,
  ) {}

  async execute(input: DeploymentLogsInput) {
    await this.lookup.deployment(input.deploymentId);
    return this.logs.read(input.deploymentId, input.afterLine ?? 0, input.limit ?? 200);
  }
}
