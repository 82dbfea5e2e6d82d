import { describe, expect, it } from '@jest/globals';
import { given } from '../storage/testing/given.js';
import { AppError } from '../common/app-error.js';
import { decideFrom, type EventLike } from '../storage/decider.js';
import { approvalDecider, type ApprovalCommand } from './approval.decider.js';
import {
  ApprovalExecuted,
  ApprovalGranted,
  ApprovalRejected,
  ApprovalRequested,
  type Requester,
} from '../events/deployments.events.js';

const operator: Requester = {
  principalId: 'p1',
  kind: 'user',
  role: 'operator',
  authMethod: 'session',
  tokenId: null,
};
const agent: Requester = {
  principalId: 'bot',
  kind: 'agent',
  role: 'agent',
  authMethod: 'token',
  tokenId: 't-bot',
};
const requested = (requestedBy: Requester = operator) =>
  ApprovalRequested({
    approvalId: 'a1',
    action: 'deploy',
    serviceId: 'svc',
    payload: {},
    reason: 'ship the fix today',
    requestedBy,
    expiresAt: new Date(10_000).toISOString(),
  });
const decide = (
  approve: boolean,
  decidedBy: string,
  more: Partial<Extract<ApprovalCommand, { kind: 'decide' }>> = {},
): ApprovalCommand => ({
  kind: 'decide',
  approvalId: 'a1',
  approve,
  decidedBy,
  deciderKind: 'user',
  requesterControllers: [],
  note: null,
  now: 1000,
  ...more,
});

function refusal(given: EventLike[], when: ApprovalCommand): AppError {
  try {
    decideFrom(approvalDecider, given, when);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('approval decider', () => {
  it('lets someone else approve or reject a pending request', () => {
    expect(decideFrom(approvalDecider, [requested()], decide(true, 'p2'))).toEqual([
      ApprovalGranted({ approvalId: 'a1', decidedBy: 'p2', note: null }),
    ]);
    expect(decideFrom(approvalDecider, [requested()], decide(false, 'p2'))).toEqual([
      ApprovalRejected({ approvalId: 'a1', decidedBy: 'p2', note: null }),
    ]);
  });

  it('refuses self-approval, decisions after expiry, and deciding twice', () => {
    given(approvalDecider, requested())
      .when(decide(true, 'p1'))
      .thenRefused('FORBIDDEN', /own request/);
    given(approvalDecider, requested())
      .when(decide(true, 'p2', { now: 20_000 }))
      .thenRefused('CONFLICT', /expired/);
    given(
      approvalDecider,
      requested(),
      ApprovalRejected({ approvalId: 'a1', decidedBy: 'p2', note: null }),
    )
      .when(decide(true, 'p3'))
      .thenRefused('CONFLICT', /already rejected/);
  });

  describe('two humans', () => {
    it('Given an agent’s request, When the human who created it approves, Then FORBIDDEN', () => {
      const error = refusal(
        [requested(agent)],
        decide(true, 'owner', { requesterControllers: ['owner'] }),
      );
      expect([error.code, error.data.rule]).toEqual(['FORBIDDEN', 'two-humans']);
      expect(error.message).toMatch(/agent they created or hold a token of/);
    });

    it('Given an agent’s request, When the human who minted its token rejects, Then FORBIDDEN', () => {
      const when = decide(false, 'admin', { requesterControllers: ['owner', 'admin'] });
      expect(refusal([requested(agent)], when).code).toBe('FORBIDDEN');
    });

    it('Given an agent’s request, When another human approves, Then it is granted', () => {
      expect(
        decideFrom(
          approvalDecider,
          [requested(agent)],
          decide(true, 'admin-2', { requesterControllers: ['owner', 'admin'] }),
        ),
      ).toEqual([ApprovalGranted({ approvalId: 'a1', decidedBy: 'admin-2', note: null })]);
    });

    it('Given any request, When an agent decides it, Then FORBIDDEN', () => {
      const when = decide(true, 'other-bot', { deciderKind: 'agent' });
      expect(refusal([requested()], when).message).toMatch(/Only a human/);
    });

    it('Given a request approved by another human, When its controller retries, Then nothing new', () => {
      const approved = [
        requested(agent),
        ApprovalGranted({ approvalId: 'a1', decidedBy: 'admin-2', note: null }),
      ];
      expect(
        decideFrom(
          approvalDecider,
          approved,
          decide(true, 'owner', { requesterControllers: ['owner'] }),
        ),
      ).toEqual([]);
    });
  });

  it('records the execution of an approved request once', () => {
    const approved = [
      requested(),
      ApprovalGranted({ approvalId: 'a1', decidedBy: 'p2', note: null }),
    ];
    const executed = { kind: 'executed' as const, approvalId: 'a1', deploymentId: 'd1' };
    expect(decideFrom(approvalDecider, approved, executed)).toEqual([
      ApprovalExecuted({ approvalId: 'a1', deploymentId: 'd1' }),
    ]);
    expect(
      decideFrom(
        approvalDecider,
        [...approved, ApprovalExecuted({ approvalId: 'a1', deploymentId: 'd1' })],
        executed,
      ),
    ).toEqual([]);
    expect(() => decideFrom(approvalDecider, [requested()], executed)).toThrow(/Only an approved/);
  });
});
