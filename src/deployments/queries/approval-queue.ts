import { ServicesInProjects } from '../services-in-projects.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn } from 'class-validator';
import type { ApprovalDoc } from '../../../projections/approvals.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { expiringStatusFilter, statusAt } from '../../readstore/expiring-status.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';

export class ApprovalQueueInput {
  @Omittable()
  @IsIn(['pending', 'approved', 'rejected', 'expired'])
  status?: string;

  @PageLimit(100)
  limit?: number;
}

/** A request as the queue shows it: with its service's name, and expired once past its time. */
export type QueuedApproval = Pick<
  ApprovalDoc,
  | 'id'
  | 'action'
  | 'serviceId'
  | 'payload'
  | 'reason'
  | 'requestedBy'
  | 'requestedAt'
  | 'expiresAt'
  | 'decidedBy'
  | 'decidedAt'
  | 'note'
  | 'executedDeploymentId'
> & {
  status: ApprovalDoc['status'] | 'expired';
  serviceName: string | null;
  environment: string | null;
};

export class ApprovalQueue extends ProcedureQuery<
  ApprovalQueueInput,
  { items: QueuedApproval[] }
> {}

/** Requests by status, oldest first; a pending request past its expiry reads as expired. */
@Procedure.read(ApprovalQueue, {
  name: 'approvalQueue',
  roles: EVERYONE,
  scopes: ['approval:read'],
  projectList: true,
  input: ApprovalQueueInput,
  description: 'Approval requests by status (pending, approved, rejected, expired), oldest first.',
})
export class ApprovalQueueHandler implements IQueryHandler<ApprovalQueue> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inProjects: ServicesInProjects,
  ) {}

  async execute({ input, ctx }: ApprovalQueue): Promise<{ items: QueuedApproval[] }> {
    const now = this.clock.now().toISOString();
    const page = await this.reads.collection<ApprovalDoc>('approvals').find(
      {
        ...(await this.inProjects.filter(ctx.readableProjects)),
        ...expiringStatusFilter(input.status, now),
      },
      {
        sort: { requestedAt: 1 },
        limit: input.limit ?? 50,
      },
    );
    // People read services by name: each request says which one it is about.
    const services = this.reads.collection<ServiceDoc>('services');
    const names = new Map<string, { name: string; environment: string } | null>();
    for (const { serviceId } of page.items) {
      if (!names.has(serviceId)) names.set(serviceId, await services.get(serviceId));
    }
    return {
      items: page.items.map(({ _position: _p, ...a }) => ({
        ...a,
        // A compose intake's frozen snapshot (files, sealed env) is shown by its summary only.
        payload: withoutSnapshot(a.payload),
        serviceName: names.get(a.serviceId)?.name ?? null,
        environment: names.get(a.serviceId)?.environment ?? null,
        status: statusAt(a, now),
      })),
    };
  }
}

function withoutSnapshot(payload: Record<string, unknown>): Record<string, unknown> {
  const { snapshot: _snapshot, ...shown } = payload;
  return shown;
}
