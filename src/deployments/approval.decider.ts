import { AppError, conflict, notFound } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  ApprovalExecuted,
  ApprovalGranted,
  ApprovalRejected,
  ApprovalRequested,
  type Requester,
} from '../events/deployments.events.js';

/** A request as filed: its payload frozen (what an approval runs, see approval-payload.ts). */
export interface FiledRequest {
  approvalId: string;
  action: 'deploy' | 'rollback' | 'restore';
  serviceId: string;
  payload: Record<string, unknown>;
  requestedBy: Requester;
}

export interface ApprovalState {
  /** Null until the request is filed. */
  request: FiledRequest | null;
  status: 'pending' | 'approved' | 'rejected';
  expiresAt: number;
  /** What of the service the request was made from (a digest); null: it froze nothing. */
  basis: string | null;
  /** The deployment an approved deploy or rollback queued, once it did. */
  executedDeploymentId: string | null;
}

type Decide = {
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
  /**
   * For an approval: the same digest of what the service is now (approval-payload.ts). A
   * different one means the request would not run what its approver is shown.
   */
  basis: string | null;
};

export type ApprovalCommand =
  | { kind: 'request'; event: Parameters<typeof ApprovalRequested>[0] }
  | Decide
  | { kind: 'executed'; approvalId: string; deploymentId: string };

const twoHumans = (message: string) =>
  new AppError('FORBIDDEN', message, {
    requiredScopes: ['approvals:decide'],
    grantedScopes: [],
    rule: 'two-humans',
  });

/** Who may decide: a human other than the requester and than anyone behind it. */
function assertTwoHumans(command: Decide, requester: string): void {
  if (command.deciderKind !== 'user') {
    throw twoHumans('Only a human decides approval requests');
  }
  if (command.decidedBy === requester) {
    throw twoHumans('Nobody decides their own request');
  }
  if (command.requesterControllers.includes(command.decidedBy)) {
    throw twoHumans(
      'Nobody decides a request filed by an agent they created or hold a token of: another person must',
    );
  }
}

function decision(command: Decide, state: ApprovalState, request: FiledRequest): PendingEvent[] {
  if (state.status === 'rejected' || (state.status === 'approved' && !command.approve)) {
    throw conflict(`The request is already ${state.status}`);
  }
  // Approving an approved request again retries a launch that did not happen. It is held to
  // every rule of the first approval: otherwise the requester could run their own request by
  // "retrying" it, or anyone could run it long after its time.
  if (command.now >= state.expiresAt) {
    throw conflict(
      state.status === 'approved'
        ? 'The request expired: its launch is no longer retried; file it again'
        : 'The request expired',
    );
  }
  assertTwoHumans(command, request.requestedBy.principalId);
  const stale = state.basis === null || command.basis !== state.basis;
  if (command.approve && state.executedDeploymentId === null && stale) {
    throw conflict(
      state.basis === null
        ? 'This request does not record what it would run: file it again'
        : 'The service changed since this request was filed, so it would not run what it shows: file it again',
      { reason: 'stale', approvalId: request.approvalId },
    );
  }
  if (state.status === 'approved') return [];
  const data = { approvalId: command.approvalId, decidedBy: command.decidedBy, note: command.note };
  return [command.approve ? ApprovalGranted(data) : ApprovalRejected(data)];
}

/**
 * `pending → approved | rejected | expired`; executed once. Two humans: a request is decided
 * only by a human other than the requester and other than whoever created or controls the
 * requesting agent (so nobody approves what they filed through their own agent). An approval
 * runs what the request froze, and only while the service is as it was when it was filed.
 */
export const approvalDecider: Decider<ApprovalState, ApprovalCommand> = {
  initialState: () => ({
    request: null,
    status: 'pending',
    expiresAt: 0,
    basis: null,
    executedDeploymentId: null,
  }),
  evolve(state: ApprovalState, event: EventLike): ApprovalState {
    switch (event.type) {
      case ApprovalRequested.type: {
        const d = ApprovalRequested.dataOf(event);
        return {
          ...state,
          request: {
            approvalId: d.approvalId,
            action: d.action,
            serviceId: d.serviceId,
            payload: d.payload,
            requestedBy: d.requestedBy,
          },
          expiresAt: Date.parse(d.expiresAt),
          basis: typeof d.payload.basis === 'string' ? d.payload.basis : null,
        };
      }
      case ApprovalGranted.type:
        return { ...state, status: 'approved' };
      case ApprovalRejected.type:
        return { ...state, status: 'rejected' };
      case ApprovalExecuted.type:
        return { ...state, executedDeploymentId: ApprovalExecuted.dataOf(event).deploymentId };
      default:
        return state;
    }
  },
  decide(command: ApprovalCommand, state: ApprovalState) {
    if (command.kind === 'request') {
      if (state.request) throw conflict('This approval already exists');
      return [ApprovalRequested(command.event)];
    }
    if (!state.request) throw notFound('No such approval request');
    if (command.kind === 'executed') {
      if (state.status !== 'approved') throw conflict('Only an approved request executes');
      return state.executedDeploymentId !== null
        ? []
        : [
            ApprovalExecuted({
              approvalId: command.approvalId,
              deploymentId: command.deploymentId,
            }),
          ];
    }
    return decision(command, state, state.request);
  },
};
