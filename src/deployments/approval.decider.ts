import { AppError, conflict, notFound } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  ApprovalExecuted,
  ApprovalGranted,
  ApprovalRejected,
  ApprovalRequested,
} from '../events/deployments.events.js';

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
      /** Only a human decides: agents never do, whatever their scopes. */
      deciderKind: 'user' | 'agent';
      /**
       * The humans behind the requester besides itself: for an agent, the user who created it
       * and the user who minted the token it filed the request with.
       */
      requesterControllers: readonly string[];
      note: string | null;
      now: number;
    }
  | { kind: 'executed'; approvalId: string; deploymentId: string };

const twoHumans = (message: string) =>
  new AppError('FORBIDDEN', message, {
    requiredScopes: ['approvals:decide'],
    grantedScopes: [],
    rule: 'two-humans',
  });

/**
 * `pending → approved | rejected | expired`; executed once. Two humans: a request is decided
 * only by a human other than the requester and other than whoever created or controls the
 * requesting agent (so nobody approves what they filed through their own agent).
 */
export const approvalDecider: Decider<ApprovalState, ApprovalCommand> = {
  initialState: () => ({
    exists: false,
    requester: null,
    status: 'pending',
    expiresAt: 0,
    executed: false,
  }),
  evolve(state: ApprovalState, event: EventLike): ApprovalState {
    switch (event.type) {
      case ApprovalRequested.type: {
        const d = ApprovalRequested.dataOf(event);
        return {
          ...state,
          exists: true,
          requester: d.requestedBy.principalId,
          expiresAt: Date.parse(d.expiresAt),
        };
      }
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
    if (command.deciderKind !== 'user') {
      throw twoHumans('Only a human decides approval requests');
    }
    if (command.decidedBy === state.requester) {
      throw twoHumans('Nobody decides their own request');
    }
    if (command.requesterControllers.includes(command.decidedBy)) {
      throw twoHumans(
        'Nobody decides a request filed by an agent they created or hold a token of: another person must',
      );
    }
    const data = {
      approvalId: command.approvalId,
      decidedBy: command.decidedBy,
      note: command.note,
    };
    return [command.approve ? ApprovalGranted(data) : ApprovalRejected(data)];
  },
};
