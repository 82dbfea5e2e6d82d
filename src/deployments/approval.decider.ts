import { AppError, conflict, notFound } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  ApprovalExecuted,
  ApprovalGranted,
  ApprovalRejected,
  ApprovalRequested,
} from './deployments.events.js';

export interface ApprovalState {
  exists: boolean;
  requester: string | null;
  status: 'pending' | 'approved' | 'rejected';
  expiresAt: number;
  executed: boolean;
}

export type ApprovalCommand =
  | { kind: 'request'; event: Parameters<typeof ApprovalRequested>[0] }
  | {
      kind: 'decide';
      approvalId: string;
      approve: boolean;
      decidedBy: string;
      note: string | null;
      now: number;
    }
  | { kind: 'executed'; approvalId: string; deploymentId: string };

/** `pending → approved | rejected | expired`; nobody decides their own request; executed once. */
export const approvalDecider: Decider<ApprovalState, ApprovalCommand> = {
  initialState: () => ({
    exists: false,
    requester: null,
    status: 'pending',
    expiresAt: 0,
    executed: false,
  }),
  evolve(state: ApprovalState, event: EventLike): ApprovalState {
    const d = event.data as Record<string, unknown>;
    switch (event.type) {
      case ApprovalRequested.type:
        return {
          ...state,
          exists: true,
          requester: String((d.requestedBy as { principalId: string }).principalId),
          expiresAt: Date.parse(String(d.expiresAt)),
        };
      case ApprovalGranted.type:
        return { ...state, status: 'approved' };
      case ApprovalRejected.type:
        return { ...state, status: 'rejected' };
      case ApprovalExecuted.type:
        return { ...state, executed: true };
      default:
        return state;
    }
  },
  decide(command: ApprovalCommand, state: ApprovalState) {
    if (command.kind === 'request') {
      if (state.exists) throw conflict('This approval already exists');
      return [ApprovalRequested(command.event)];
    }
    if (!state.exists) throw notFound('No such approval request');
    if (command.kind === 'executed') {
      if (state.status !== 'approved') throw conflict('Only an approved request executes');
      return state.executed
        ? []
        : [
            ApprovalExecuted({
              approvalId: command.approvalId,
              deploymentId: command.deploymentId,
            }),
          ];
    }
    if (state.status !== 'pending') {
      // Approving an approved request again is how a stalled execution is retried.
      if (command.approve && state.status === 'approved') return [];
      throw conflict(`The request is already ${state.status}`);
    }
    if (command.now >= state.expiresAt) throw conflict('The request expired');
    if (command.decidedBy === state.requester) {
      throw new AppError('FORBIDDEN', 'Nobody decides their own request', {
        requiredScopes: ['approvals:decide'],
        grantedScopes: [],
      });
    }
    const data = {
      approvalId: command.approvalId,
      decidedBy: command.decidedBy,
      note: command.note,
    };
    return [command.approve ? ApprovalGranted(data) : ApprovalRejected(data)];
  },
};
