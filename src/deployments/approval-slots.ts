import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { approvalSlotsStream } from '../events/approval-slots.events.js';
import { approvalStream } from '../events/deployments.events.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { approvalSlotsDecider, type ApprovalSlot } from './approval-slots.decider.js';
import { approvalDecider } from './approval.decider.js';

/** A slot taken for a request whose stream is not there yet is being opened, unless this old. */
export const OPENING_GRACE_MS = 60_000;

/**
 * Each principal's waiting requests, counted on its own stream (approvalSlotsDecider): the
 * requests' own streams say which are decided, and are read first as facts.
 */
@Injectable()
export class ApprovalSlots {
  constructor(private readonly runner: DeciderRunner) {}

  /** Takes a slot for a request about to be opened; refused when the requester has none free. */
  async take(
    requestedBy: string,
    approvalId: string,
    expiresAt: string,
    now: number,
    ctx: RequestContext,
  ): Promise<void> {
    const stream = approvalSlotsStream(requestedBy);
    const { open } = await this.runner.load(stream, approvalSlotsDecider);
    const closed: string[] = [];
    for (const slot of open) {
      if (slot.expiresAt > now && !(await this.waiting(slot, now))) closed.push(slot.approvalId);
    }
    await this.runner.run(
      stream,
      approvalSlotsDecider,
      { kind: 'take', requestedBy, approvalId, expiresAt, now, closed },
      ctx,
      20,
    );
  }

  /** Gives a slot back: its request turned out to be one already waiting. */
  async free(requestedBy: string, approvalId: string, ctx: RequestContext): Promise<void> {
    await this.runner.run(
      approvalSlotsStream(requestedBy),
      approvalSlotsDecider,
      { kind: 'free', requestedBy, approvalIds: [approvalId] },
      ctx,
      20,
    );
  }

  private async waiting(slot: ApprovalSlot, now: number): Promise<boolean> {
    const request = await this.runner.load(approvalStream(slot.approvalId), approvalDecider);
    return request.request ? request.status === 'pending' : now - slot.takenAt < OPENING_GRACE_MS;
  }
}
