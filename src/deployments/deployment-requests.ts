import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { launchBasis } from './approval-payload.js';
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
    if (ask.required || approvalRequired(launch.service.approvalRule, ctx.principal!)) {
      return this.ask(launch, ask, ctx);
    }
    return { status: 'queued' as const, ...(await this.launcher.launch(launch, ctx)) };
  }

  /**
   * An approval request for this launch, frozen whole: the snapshot the launcher would queue
   * now (checked as it would be), which is what an approval queues, and the basis that tells
   * whether the service is still as it was (approval-payload.ts).
   */
  async ask(
    launch: Pick<LaunchRequest, 'service' | 'imageRef' | 'snapshot'>,
    ask: Omit<ApprovalAsk, 'required'>,
    ctx: RequestContext,
  ): Promise<PendingApproval> {
    const { service, imageRef } = launch;
    const snapshot = {
      ...(await this.launcher.launchable(service, imageRef, launch.snapshot)),
      imageRef,
    };
    return this.approvals.open(
      ask.action,
      service.id,
      {
        ...ask.payload,
        imageRef,
        serverId: snapshot.serverId,
        snapshot,
        basis: launchBasis(ask.action, service, imageRef),
      },
      ask.reason.slice(0, 280),
      ctx,
    );
  }
}
