import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { conflict, notFound } from '../common/app-error.js';
import { canonicalJson } from '../common/canonical-json.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { approvalClaimDecider, type ApprovalClaim } from './approval-claim.decider.js';
import { ApprovalSlots, OPENING_GRACE_MS } from './approval-slots.js';
import { approvalDecider, type ApprovalState, type FiledRequest } from './approval.decider.js';
import { requesterOf } from './deployment-launcher.js';
import { approvalClaimStream, approvalStream } from '../events/deployments.events.js';
import { DeploymentLookup } from './deployment-lookup.js';

export const APPROVAL_TTL_MS = 24 * 3_600_000;

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
 * Opens an approval request whose payload is frozen: what is approved is what runs
 * (approval-payload.ts). The same input (service, action, payload) has one pending request at
 * a time: asked again by its requester, the pending one is the answer; asked by someone else,
 * it is refused (that request already waits for a decision). A requester has a bounded number
 * waiting (ApprovalSlots). Records the decisions on them.
 */
@Injectable()
export class ApprovalRequests {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
    private readonly slots: ApprovalSlots,
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
    // request is the same when the rest of its payload (with its basis) is.
    const { snapshot: _frozen, ...asked } = payload;
    const digest = createHash('sha256')
      .update(canonicalJson({ action, payload: asked }))
      .digest('hex');
    const claimStream = approvalClaimStream(serviceId, digest);
    const { claim, closed } = await this.claimOf(claimStream, now);
    // The same request already waiting is the answer, and takes no second slot.
    if (claim && claim.approvalId !== closed && claim.expiresAt > now)
      return this.pending(claim, action, ctx);
    const principalId = requestedBy.principalId;
    await this.slots.take(principalId, approvalId, expiresAt, now, ctx);
    const { current } = (
      await this.runner.run(
        claimStream,
        approvalClaimDecider,
        { serviceId, approvalId, requestedBy: principalId, expiresAt, now, closed },
        ctx,
        20,
      )
    ).state;
    if (current!.approvalId !== approvalId) {
      // Another request for the same input won the race: ours is never opened.
      await this.slots.free(principalId, approvalId, ctx);
      return this.pending(current!, action, ctx);
    }
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

  /** A request as filed, from its own stream (the facts a decision is made on). */
  async filed(approvalId: string): Promise<FiledRequest> {
    const { request } = await this.runner.load(approvalStream(approvalId), approvalDecider);
    if (!request) throw notFound('No such approval request');
    return request;
  }

  /**
   * Approves or rejects someone else's request: never one filed by yourself or by an agent you
   * created or hold a token of (the decider's two-humans rule), and an approval only while the
   * service is as `basis` says it was when the request was filed. Answers the state after.
   */
  async decide(
    request: FiledRequest,
    approve: boolean,
    note: string | null,
    basis: string | null,
    ctx: RequestContext,
  ): Promise<ApprovalState> {
    const decided = await this.runner.run(
      approvalStream(request.approvalId),
      approvalDecider,
      {
        kind: 'decide',
        approvalId: request.approvalId,
        approve,
        decidedBy: ctx.principal!.id,
        deciderKind: ctx.principal!.kind,
        requesterControllers: await this.lookup.controllersOf(request.requestedBy),
        note,
        now: this.clock.now().getTime(),
        basis,
      },
      ctx,
    );
    return decided.state;
  }

  /**
   * The request that holds the claim for this input, and that request's id when it is no
   * longer pending (so a new one may take its place).
   */
  private async claimOf(
    claimStream: string,
    now: number,
  ): Promise<{ claim: ApprovalClaim | null; closed: string | null }> {
    const { current } = await this.runner.load(claimStream, approvalClaimDecider);
    if (!current || current.expiresAt <= now) return { claim: current, closed: null };
    const request = await this.runner.load(approvalStream(current.approvalId), approvalDecider);
    const open = request.request
      ? request.status === 'pending'
      : now - current.claimedAt < OPENING_GRACE_MS;
    return { claim: current, closed: open ? null : current.approvalId };
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
