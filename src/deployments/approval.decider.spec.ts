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
    payload: { basis: 'b1' },
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
  basis: approve ? 'b1' : null,
  ...more,
});

const granted = (decidedBy: string) => ApprovalGranted({ approvalId: 'a1', decidedBy, note: null });
const executed = ApprovalExecuted({ approvalId: 'a1', deploymentId: 'd1' });

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

    it('Given a request approved by another human, When its controller retries, Then FORBIDDEN', () => {
      given(approvalDecider, requested(agent), granted('admin-2'))
        .when(decide(true, 'owner', { requesterControllers: ['owner'] }))
        .thenRefused('FORBIDDEN', /agent they created/);
    });
  });

  describe('approving again (a retry of a launch that did not happen)', () => {
    it('Given an approved request, When its requester approves it, Then FORBIDDEN', () => {
      given(approvalDecider, requested(), granted('p2'))
        .when(decide(true, 'p1'))
        .thenRefused('FORBIDDEN', /own request/);
    });

    it('Given an approved request, When an agent approves it, Then FORBIDDEN', () => {
      given(approvalDecider, requested(), granted('p2'))
        .when(decide(true, 'bot', { deciderKind: 'agent' }))
        .thenRefused('FORBIDDEN', /Only a human/);
    });

    it('Given an approved request, When its approver retries in its lifetime, Then nothing new', () => {
      given(approvalDecider, requested(), granted('p2')).when(decide(true, 'p2')).thenNothing();
    });

    it('Given an approved request past its expiry, When its approver retries, Then CONFLICT', () => {
      given(approvalDecider, requested(), granted('p2'))
        .when(decide(true, 'p2', { now: 10_000 }))
        .thenRefused('CONFLICT', /expired: its launch is no longer retried/);
    });

    it('Given an approved request, When its approver retries once the service changed, Then stale', () => {
      given(approvalDecider, requested(), granted('p2'))
        .when(decide(true, 'p2', { basis: 'b2' }))
        .thenRefused('CONFLICT', /changed since this request was filed/);
    });

    it('Given an executed request, When its approver retries, Then nothing new (it ran already)', () => {
      given(approvalDecider, requested(), granted('p2'), executed)
        .when(decide(true, 'p2', { basis: 'b2' }))
        .thenNothing();
    });

    it('Given an approved request, When someone rejects it, Then CONFLICT', () => {
      given(approvalDecider, requested(), granted('p2'))
        .when(decide(false, 'p3'))
        .thenRefused('CONFLICT', /already approved/);
    });
  });

  describe('what it runs', () => {
    it('Given a request, When approved once the service changed under it, Then CONFLICT stale', () => {
      const error = refusal([requested()], decide(true, 'p2', { basis: 'b2' }));
      expect([error.code, error.data.reason]).toEqual(['CONFLICT', 'stale']);
    });

    it('Given a request that froze nothing, When approved, Then CONFLICT stale', () => {
      const legacy = ApprovalRequested({ ...requested().data, payload: { imageRef: 'x:1' } });
      const error = refusal([legacy], decide(true, 'p2', { basis: null }));
      expect([error.code, error.data.reason]).toEqual(['CONFLICT', 'stale']);
    });

    it('Given a request the service changed under, When rejected, Then it is rejected', () => {
      given(approvalDecider, requested())
        .when(decide(false, 'p2', { basis: 'b2' }))
        .then(ApprovalRejected({ approvalId: 'a1', decidedBy: 'p2', note: null }));
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
