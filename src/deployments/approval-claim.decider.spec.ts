import { describe, it } from '@jest/globals';
import { ApprovalClaimed } from '../events/deployments.events.js';
import { given } from '../storage/testing/given.js';
import {
  approvalClaimDecider as claims,
  type ApprovalClaimCommand,
} from './approval-claim.decider.js';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const HOUR = 3_600_000;

const claimed = (approvalId: string, expiresAt: number) =>
  ApprovalClaimed({
    serviceId: 's1',
    approvalId,
    requestedBy: 'u1',
    expiresAt: new Date(expiresAt).toISOString(),
    claimedAt: new Date(expiresAt - 24 * HOUR).toISOString(),
  });

const ask = (approvalId: string, closed: string | null = null): ApprovalClaimCommand => ({
  serviceId: 's1',
  approvalId,
  requestedBy: 'u1',
  expiresAt: new Date(NOW + 24 * HOUR).toISOString(),
  now: NOW,
  closed,
});

const claimOf = (approvalId: string) =>
  ApprovalClaimed({
    serviceId: 's1',
    approvalId,
    requestedBy: 'u1',
    expiresAt: new Date(NOW + 24 * HOUR).toISOString(),
    claimedAt: new Date(NOW).toISOString(),
  });

describe('approval claim decider', () => {
  it('claims an input nobody asked for yet', () => {
    given(claims).when(ask('a2')).then(claimOf('a2'));
  });

  it('claims nothing while the claimed request is pending: that request is the answer', () => {
    given(claims, claimed('a1', NOW + HOUR))
      .when(ask('a2'))
      .thenNothing();
  });

  it('claims again once the caller found the claimed request decided', () => {
    given(claims, claimed('a1', NOW + HOUR))
      .when(ask('a2', 'a1'))
      .then(claimOf('a2'));
  });

  it('claims again once the claimed request expired', () => {
    given(claims, claimed('a1', NOW - 1))
      .when(ask('a2'))
      .then(claimOf('a2'));
  });

  it('keeps a claim that won a race: a request closed earlier says nothing of it', () => {
    given(claims, claimed('a0', NOW + HOUR), claimed('a1', NOW + HOUR))
      .when(ask('a2', 'a0'))
      .thenNothing();
  });
});
