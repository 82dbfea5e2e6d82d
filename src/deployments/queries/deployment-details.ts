import type { IQueryHandler } from '@nestjs/cqrs';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { DeploymentIdInput } from '../deployment-id.input.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { deploymentView, type DeploymentView } from '../deployment-views.js';
import { withFailuresFor } from '../reach/connection-failures.js';

export interface DeploymentDetailsAnswer extends DeploymentView {
  /** Where a queued deployment stands in its service's queue (null once it left the queue). */
  queue: { position: number | null; ahead: string[] };
}

export class DeploymentDetails extends ProcedureQuery<DeploymentIdInput, DeploymentDetailsAnswer> {}

/**
 * Everything about one deployment, and where it stands in its service's queue. The MCP tools
 * read it by its name.
 */
@Procedure.read(DeploymentDetails, {
  name: 'deploymentDetails',
  roles: EVERYONE,
  scopes: ['deploy:read'],
  input: DeploymentIdInput,
  description:
    'One deployment: status, steps, requester, frozen snapshot (secrets masked), queue position.',
  project: { deployment: 'deploymentId' },
})
export class DeploymentDetailsHandler implements IQueryHandler<DeploymentDetails> {
  constructor(private readonly lookup: DeploymentLookup) {}

  async execute({ input, ctx }: DeploymentDetails): Promise<DeploymentDetailsAnswer> {
    const d = withFailuresFor(await this.lookup.deployment(input.deploymentId), ctx);
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
