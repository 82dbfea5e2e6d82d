import { Inject, Injectable } from '@nestjs/common';
import { IsIn } from 'class-validator';
import type { ApprovalDoc } from '../../../projections/approvals.projection.js';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
import { deploymentSummary, serverView, serviceView } from '../deployment-views.js';
import { PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';

/** Servers and their services, each with its current and latest deployment and a health word. */
@Injectable()
export class InfrastructureInventoryHandler {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute() {
    const servers = (
      await this.reads.collection<ServerDoc>('servers').find({}, { sort: { name: 1 }, limit: 1000 })
    ).items;
    const services = (
      await this.reads
        .collection<ServiceDoc>('services')
        .find({}, { sort: { name: 1 }, limit: 1000 })
    ).items;
    const deployments = this.reads.collection<DeploymentDoc>('deployments');
    const serviceViews = await Promise.all(
      services.map(async (s) => {
        const latest =
          (await deployments.find({ serviceId: s.id }, { sort: { order: -1 }, limit: 1 }))
            .items[0] ?? null;
        const health = !latest
          ? 'never-deployed'
          : latest.status === 'failed'
            ? 'degraded'
            : latest.status === 'succeeded'
              ? 'healthy'
              : latest.status === 'cancelled'
                ? s.currentDeploymentId
                  ? 'healthy'
                  : 'never-deployed'
                : 'deploying';
        return {
          ...serviceView(s),
          latestDeployment: latest ? deploymentSummary(latest) : null,
          health,
        };
      }),
    );
    return {
      servers: servers.map((server) => ({
        ...serverView(server),
        services: serviceViews.filter((s) => s.serverId === server.id),
      })),
      totals: {
        servers: servers.length,
        services: services.length,
        serversAwaitingHostKeyApproval: servers.filter((s) => !s.hostKeyApproved).length,
      },
    };
  }
}

export class ApprovalQueueInput {
  @Omittable()
  @IsIn(['pending', 'approved', 'rejected', 'expired'])
  status?: string;

  @PageLimit(100)
  limit?: number;
}

/** Requests by status, oldest first; a pending request past its expiry reads as expired. */
@Injectable()
export class ApprovalQueueHandler {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(status: string | undefined, limit: number) {
    const now = this.clock.now().toISOString();
    const filter: Filter =
      status === 'expired'
        ? { status: 'pending', expiresAt: { $lte: now } }
        : status === 'pending'
          ? { status: 'pending', expiresAt: { $gt: now } }
          : status
            ? { status }
            : {};
    const page = await this.reads
      .collection<ApprovalDoc>('approvals')
      .find(filter, { sort: { requestedAt: 1 }, limit });
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
        status: a.status === 'pending' && a.expiresAt <= now ? 'expired' : a.status,
      })),
    };
  }
}

function withoutSnapshot(payload: Record<string, unknown>): Record<string, unknown> {
  const { snapshot: _snapshot, ...shown } = payload;
  return shown;
}
