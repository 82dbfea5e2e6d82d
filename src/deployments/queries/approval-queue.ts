import { ServicesInProjects } from '../services-in-projects.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn } from 'class-validator';
import type { ApprovalDoc } from '../../../projections/approvals.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { expiringStatusFilter, statusAt } from '../../readstore/expiring-status.js';
import { readPage } from '../../readstore/read-page.js';
import { READ_STORE, type Page, type ReadStore } from '../../readstore/read-store.port.js';
import { ApprovalViews, type FrozenView } from './approval-view.js';

export class ApprovalQueueInput {
  @Omittable()
  @IsIn(['pending', 'approved', 'rejected', 'expired'])
  status?: string;

  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
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
  /** What approving it runs, as the request froze it (the reason is only the requester's word). */
  frozen: FrozenView;
};

export class ApprovalQueue extends ProcedureQuery<ApprovalQueueInput, Page<QueuedApproval>> {}

/**
 * Requests by status, oldest first, a page at a time (`cursor`); a pending request past its
 * expiry reads as expired. Each says what approving it runs (`frozen`).
 */
@Procedure.read(ApprovalQueue, {
  name: 'approvalQueue',
  roles: EVERYONE,
  scopes: ['approval:read'],
  projectList: true,
  input: ApprovalQueueInput,
  description:
    'Approval requests by status (pending, approved, rejected, expired), oldest first: {status?, limit 1-100 (50), cursor?}; `frozen` is what approving one runs (image, server, snapshot digest, env names; for a waiting one, its changes against what runs now and whether it is stale).',
})
export class ApprovalQueueHandler implements IQueryHandler<ApprovalQueue> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inProjects: ServicesInProjects,
    private readonly views: ApprovalViews,
  ) {}

  async execute({ input, ctx }: ApprovalQueue): Promise<Page<QueuedApproval>> {
    const now = this.clock.now().toISOString();
    const filter = {
      ...(await this.inProjects.filter(ctx.readableProjects)),
      ...expiringStatusFilter(input.status, now),
    };
    // People read services by name: each request says which one it is about.
    const services = this.reads.collection<ServiceDoc>('services');
    const names = new Map<string, Promise<ServiceDoc | null>>();
    const frozen = this.views.viewer();
    return readPage(
      this.reads.collection<ApprovalDoc>('approvals'),
      { filter, sort: { requestedAt: 1 }, defaultLimit: 50 },
      input,
      async ({ _position: _p, ...a }) => {
        if (!names.has(a.serviceId)) names.set(a.serviceId, services.get(a.serviceId));
        const service = await names.get(a.serviceId)!;
        const status = statusAt(a, now);
        return {
          ...a,
          // The frozen snapshot (files, sealed env) and its basis are shown by `frozen` only.
          payload: shownPayload(a.payload),
          serviceName: service?.name ?? null,
          environment: service?.environment ?? null,
          status,
          frozen: await frozen(a, status === 'pending'),
        };
      },
    );
  }
}

function shownPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const { snapshot: _snapshot, basis: _basis, ...shown } = payload;
  return shown;
}
