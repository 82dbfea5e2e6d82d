import type { Decider, EventLike } from '../storage/decider.js';
import { ApprovalClaimed } from '../events/deployments.events.js';

export interface ApprovalClaim {
  approvalId: string;
  requestedBy: string;
  expiresAt: number;
  claimedAt: number;
}

export interface ApprovalClaimState {
  current: ApprovalClaim | null;
}

export interface ApprovalClaimCommand {
  serviceId: string;
  approvalId: string;
  requestedBy: string;
  expiresAt: string;
  now: number;
  /**
   * The claimed request the caller found no longer pending (decided, expired, or never opened),
   * read before this command. Another claim than that one is still pending: a request that
   * raced this one and won.
   */
  closed: string | null;
}

/**
 * One input of an approval request (its service, action and payload): while a request for it
 * is pending, it stands for that input and a second request gets it instead of a duplicate.
 * The request's own stream says whether it is decided; the caller reads that and names it
 * `closed`, so this stream stays short and never needs the decisions.
 */
export const approvalClaimDecider: Decider<ApprovalClaimState, ApprovalClaimCommand> = {
  initialState: () => ({ current: null }),

  evolve(state: ApprovalClaimState, event: EventLike): ApprovalClaimState {
    if (event.type !== ApprovalClaimed.type) return state;
    const d = ApprovalClaimed.dataOf(event);
    return {
      current: {
        approvalId: d.approvalId,
        requestedBy: d.requestedBy,
        expiresAt: Date.parse(d.expiresAt),
        claimedAt: Date.parse(d.claimedAt),
      },
    };
  },

  decide(command: ApprovalClaimCommand, state: ApprovalClaimState) {
    const current = state.current;
    const pending =
      current !== null && current.approvalId !== command.closed && current.expiresAt > command.now;
    if (pending) return [];
    return [
      ApprovalClaimed({
        serviceId: command.serviceId,
        approvalId: command.approvalId,
        requestedBy: command.requestedBy,
        expiresAt: command.expiresAt,
        claimedAt: new Date(command.now).toISOString(),
      }),
    ];
  },
};
