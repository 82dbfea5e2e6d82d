import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { conflict } from '../common/app-error.js';
import { canonicalJson } from '../common/canonical-json.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { approvalClaimDecider, type ApprovalClaim } from './approval-claim.decider.js';
import { approvalDecider } from './approval.decider.js';
import { requesterOf } from './deployment-launcher.js';
import { approvalClaimStream, approvalStream } from '../events/deployments.events.js';
import type { ApprovalDoc } from '../../projections/approvals.projection.js';
import { DeploymentLookup } from './deployment-lookup.js';

export const APPROVAL_TTL_MS = 24 * 3_600_000;

/** A claimed request not yet on its stream is being opened, unless the claim is this old. */
const OPENING_GRACE_MS = 60_000;

export interface PendingApproval {
  status: 'pending_approval';
  approvalId: string;
  action: string;
  expiresAt: string;
  /** False when the same request of the same principal was already pending: that one is it. */
  created: boolean;
}

export type Action = 'deploy' | 'rollback' | 'restore';

/**
 * Opens an approval request whose payload is frozen: what is approved is what runs. The same
 * input (service, action, payload) has one pending request at a time: asked again by its
 * requester, the pending one is the answer; asked by someone else, it is refused (that request
 * already waits for a decision). Records the decisions on them.
 */
@Injectable()
export class ApprovalRequests {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async open(
    action: Action,
    serviceId: string,
    payload: Record<string, unknown>,
    reason: string,
    ctx: RequestContext,
  ): Promise<PendingApproval> {
    const now = this.clock.now().getTime();
    const requestedBy = requesterOf(ctx);
    const approvalId = randomUUID();
    const expiresAt = new Date(now + APPROVAL_TTL_MS).toISOString();
    // A frozen snapshot (compose intake) holds sealed secrets, different at every sealing: the
    // request is the same when the rest of its payload (with the intake's digest) is.
    const { snapshot: _frozen, ...asked } = payload;
    const digest = createHash('sha256')
      .update(canonicalJson({ action, payload: asked }))
      .digest('hex');
    const claimStream = approvalClaimStream(serviceId, digest);
    const closed = await this.closedClaim(claimStream, now);
    const { current } = (
      await this.runner.run(
        claimStream,
        approvalClaimDecider,
        { serviceId, approvalId, requestedBy: requestedBy.principalId, expiresAt, now, closed },
        ctx,
        20,
      )
    ).state;
    if (current!.approvalId !== approvalId) return this.pending(current!, action, ctx);
    await this.runner.run(
      approvalStream(approvalId),
      approvalDecider,
      {
        kind: 'request',
        event: { approvalId, action, serviceId, payload, reason, requestedBy, expiresAt },
      },
      ctx,
    );
    return { status: 'pending_approval', approvalId, action, expiresAt, created: true };
  }

  /**
   * Approves or rejects someone else's request: never one filed by yourself or by an agent you
   * created or hold a token of (the decider's two-humans rule). Answers the request decided on.
   */
  async decide(
    approvalId: string,
    approve: boolean,
    note: string | null,
    ctx: RequestContext,
  ): Promise<ApprovalDoc> {
    const approval = await this.lookup.approval(approvalId);
    await this.runner.run(
      approvalStream(approval.id),
      approvalDecider,
      {
        kind: 'decide',
        approvalId: approval.id,
        approve,
        decidedBy: ctx.principal!.id,
        deciderKind: ctx.principal!.kind,
        requesterControllers: await this.lookup.controllersOf(approval.requestedBy),
        note,
        now: this.clock.now().getTime(),
      },
      ctx,
    );
    return approval;
  }

  /** The claimed request, when it is no longer pending (so a new one may take its place). */
  private async closedClaim(claimStream: string, now: number): Promise<string | null> {
    const { current } = await this.runner.load(claimStream, approvalClaimDecider);
    if (!current || current.expiresAt <= now) return null;
    const request = await this.runner.load(approvalStream(current.approvalId), approvalDecider);
    const open = request.exists
      ? request.status === 'pending'
      : now - current.claimedAt < OPENING_GRACE_MS;
    return open ? null : current.approvalId;
  }

  private pending(claim: ApprovalClaim, action: Action, ctx: RequestContext): PendingApproval {
    if (claim.requestedBy !== ctx.principal!.id) {
      throw conflict('The same request is already waiting for approval', {
        approvalId: claim.approvalId,
      });
    }
    return {
      status: 'pending_approval',
      approvalId: claim.approvalId,
      action,
      expiresAt: new Date(claim.expiresAt).toISOString(),
      created: false,
    };
  }
}
