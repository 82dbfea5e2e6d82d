import { describe, expect, it } from '@jest/globals';
import { ApprovalSlotTaken, ApprovalSlotsFreed } from '../events/approval-slots.events.js';
import { decideFrom } from '../storage/decider.js';
import { given } from '../storage/testing/given.js';
import {
  approvalSlotsDecider as slots,
  MAX_PENDING_PER_REQUESTER as MAX,
  type ApprovalSlotsCommand,
} from './approval-slots.decider.js';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const HOUR = 3_600_000;

const taken = (approvalId: string, expiresAt = NOW + HOUR) =>
  ApprovalSlotTaken({
    requestedBy: 'bot',
    approvalId,
    expiresAt: new Date(expiresAt).toISOString(),
    takenAt: new Date(expiresAt - 24 * HOUR).toISOString(),
  });

const take = (approvalId: string, closed: string[] = []): ApprovalSlotsCommand => ({
  kind: 'take',
  requestedBy: 'bot',
  approvalId,
  expiresAt: new Date(NOW + 24 * HOUR).toISOString(),
  now: NOW,
  closed,
});

const full = Array.from({ length: MAX }, (_, i) => taken(`a${i}`));

describe('approval slots decider', () => {
  it('Given no waiting request, When one is filed, Then it takes a slot', () => {
    given(slots)
      .when(take('new'))
      .then(
        ApprovalSlotTaken({
          requestedBy: 'bot',
          approvalId: 'new',
          expiresAt: new Date(NOW + 24 * HOUR).toISOString(),
          takenAt: new Date(NOW).toISOString(),
        }),
      );
  });

  it('Given every slot taken by waiting requests, When another is filed, Then CONFLICT', () => {
    given(slots, ...full)
      .when(take('one-too-many'))
      .thenRefused('CONFLICT', /20 approval requests waiting/);
  });

  it('Given every slot taken, one of them decided, When another is filed, Then the decided one is freed', () => {
    const events = decideFrom(slots, full, take('next', ['a3']));
    expect(events.map((e) => e.type)).toEqual([ApprovalSlotsFreed.type, ApprovalSlotTaken.type]);
    expect(events[0].data).toEqual({ requestedBy: 'bot', approvalIds: ['a3'] });
  });

  it('Given every slot taken, one of them expired, When another is filed, Then it takes its place', () => {
    const history = [...full.slice(1), taken('old', NOW - 1)];
    const events = decideFrom(slots, history, take('next'));
    expect(events[0].data).toEqual({ requestedBy: 'bot', approvalIds: ['old'] });
  });

  it('Given freed slots, When folded, Then they no longer count', () => {
    const freed = ApprovalSlotsFreed({ requestedBy: 'bot', approvalIds: ['a0', 'a1'] });
    given(slots, ...full, freed)
      .when(take('x'))
      .then(
        ApprovalSlotTaken({
          requestedBy: 'bot',
          approvalId: 'x',
          expiresAt: new Date(NOW + 24 * HOUR).toISOString(),
          takenAt: new Date(NOW).toISOString(),
        }),
      );
  });

  it('Given a slot, When it is freed (a duplicate request), Then it goes; an unknown one changes nothing', () => {
    given(slots, taken('dup'))
      .when({ kind: 'free', requestedBy: 'bot', approvalIds: ['dup'] })
      .then(ApprovalSlotsFreed({ requestedBy: 'bot', approvalIds: ['dup'] }));
    given(slots, taken('dup'))
      .when({ kind: 'free', requestedBy: 'bot', approvalIds: ['other'] })
      .thenNothing();
  });
});
