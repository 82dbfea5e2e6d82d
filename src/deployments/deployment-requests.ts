import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { ApprovalRequests, type Action, type PendingApproval } from './approval-requests.js';
import { approvalRequired } from './approval-rules.js';
import {
  DeploymentLauncher,
  type LaunchRequest,
  type QueuedDeploymentAnswer,
} from './deployment-launcher.js';

/** What an approval would be asked for, when the service's rule asks for one. */
export interface ApprovalAsk {
  action: Extract<Action, 'deploy' | 'rollback'>;
  payload: Record<string, unknown>;
  reason: string;
  /** Asked for whatever the service's rule says (a git rule's `approval` action). */
  required?: boolean;
}

/**
 * A deployment a caller asks for: queued now, or, when the service's approval rule says so,
 * an approval request (only once the launcher found that it could run: nobody should approve
 * what cannot). Shared by triggers and rollbacks.
 */
@Injectable()
export class DeploymentRequests {
  constructor(
    private readonly launcher: DeploymentLauncher,
    private readonly approvals: ApprovalRequests,
  ) {}

  async request(
    launch: LaunchRequest,
    ask: ApprovalAsk,
    ctx: RequestContext,
  ): Promise<QueuedDeploymentAnswer | PendingApproval> {
    const { service } = launch;
    if (ask.required || approvalRequired(service.approvalRule, ctx.principal!)) {
      await this.launcher.launchable(service, launch.imageRef, launch.snapshot);
      return this.approvals.open(
        ask.action,
        service.id,
        ask.payload,
        ask.reason.slice(0, 280),
        ctx,
      );
    }
    return { status: 'queued' as const, ...(await this.launcher.launch(launch, ctx)) };
  }
}
