import { conflict } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import { ApprovalSlotTaken, ApprovalSlotsFreed } from '../events/approval-slots.events.js';
import type { Decider, EventLike } from '../storage/decider.js';

/**
 * Most requests one principal may have waiting for a decision at once. Each request a person
 * must read before deciding; a credential that files requests without end (an agent's token, a
 * git rule pushed to in a loop) would otherwise bury everyone else's under its own. Twenty is
 * more than any person or pipeline needs waiting at once, and a decided or expired request frees
 * its place at once.
 */
export const MAX_PENDING_PER_REQUESTER = 20;

export interface ApprovalSlot {
  approvalId: string;
  expiresAt: number;
  takenAt: number;
}

export interface ApprovalSlotsState {
  /** Slots not yet freed: most of them still waiting; some decided, which the caller tells. */
  open: readonly ApprovalSlot[];
}

export type ApprovalSlotsCommand =
  | {
      kind: 'take';
      requestedBy: string;
      approvalId: string;
      expiresAt: string;
      now: number;
      /**
       * The slots' requests the caller found no longer waiting (decided, or never opened), read
       * from their own streams before this command: this stream never needs the decisions.
       */
      closed: readonly string[];
    }
  | { kind: 'free'; requestedBy: string; approvalIds: readonly string[] };

/**
 * A principal's waiting approval requests, at most MAX_PENDING_PER_REQUESTER: a request takes a
 * slot before it is opened, and is refused when they are all taken. Slots of requests decided or
 * expired are freed as the next one is taken, so the state stays as short as the limit.
 */
export const approvalSlotsDecider: Decider<ApprovalSlotsState, ApprovalSlotsCommand> = {
  initialState: () => ({ open: [] }),

  evolve(state: ApprovalSlotsState, event: EventLike): ApprovalSlotsState {
    if (event.type === ApprovalSlotTaken.type) {
      const d = ApprovalSlotTaken.dataOf(event);
      const slot = {
        approvalId: d.approvalId,
        expiresAt: Date.parse(d.expiresAt),
        takenAt: Date.parse(d.takenAt),
      };
      return { open: [...state.open, slot] };
    }
    if (event.type === ApprovalSlotsFreed.type) {
      const freed = new Set(ApprovalSlotsFreed.dataOf(event).approvalIds);
      return { open: state.open.filter((s) => !freed.has(s.approvalId)) };
    }
    return state;
  },

  decide(command: ApprovalSlotsCommand, state: ApprovalSlotsState): PendingEvent[] {
    if (command.kind === 'free') {
      const approvalIds = state.open
        .map((s) => s.approvalId)
        .filter((id) => command.approvalIds.includes(id));
      return approvalIds.length
        ? [ApprovalSlotsFreed({ requestedBy: command.requestedBy, approvalIds })]
        : [];
    }
    const done = state.open
      .filter((s) => s.expiresAt <= command.now || command.closed.includes(s.approvalId))
      .map((s) => s.approvalId);
    const waiting = state.open.length - done.length;
    if (waiting >= MAX_PENDING_PER_REQUESTER) {
      throw conflict(
        `You have ${waiting} approval requests waiting, the most one requester may have: wait until some are decided, or have them rejected`,
        { reason: 'too-many-pending', limit: MAX_PENDING_PER_REQUESTER },
      );
    }
    return [
      ...(done.length
        ? [ApprovalSlotsFreed({ requestedBy: command.requestedBy, approvalIds: done })]
        : []),
      ApprovalSlotTaken({
        requestedBy: command.requestedBy,
        approvalId: command.approvalId,
        expiresAt: command.expiresAt,
        takenAt: new Date(command.now).toISOString(),
      }),
    ];
  },
};
