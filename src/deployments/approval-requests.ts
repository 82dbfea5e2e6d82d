import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { approvalDecider } from './approval.decider.js';
import { requesterOf } from './deployment-launcher.js';
import { approvalStream } from '../events/deployments.events.js';

export const APPROVAL_TTL_MS = 24 * 3_600_000;

export interface PendingApproval {
  status: 'pending_approval';
  approvalId: string;
  action: string;
  expiresAt: string;
}

/** Opens an approval request whose payload is frozen: what is approved is what runs. */
@Injectable()
export class ApprovalRequests {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async open(
    action: 'deploy' | 'rollback' | 'restore',
    serviceId: string,
    payload: Record<string, unknown>,
    reason: string,
    ctx: RequestContext,
  ): Promise<PendingApproval> {
    const approvalId = randomUUID();
    const expiresAt = new Date(this.clock.now().getTime() + APPROVAL_TTL_MS).toISOString();
    await this.runner.run(
      approvalStream(approvalId),
      approvalDecider,
      {
        kind: 'request',
        event: {
          approvalId,
          action,
          serviceId,
          payload,
          reason,
          requestedBy: requesterOf(ctx),
          expiresAt,
        },
      },
      ctx,
    );
    return { status: 'pending_approval', approvalId, action, expiresAt };
  }
}
