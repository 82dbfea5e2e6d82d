import { createHash } from 'node:crypto';
import { defineEvent } from '../eventstore/define-event.js';

// Stream `approval-slots-<sha256(principalId)>`: the approval requests one principal has
// waiting, so that how many it may file at once is decided on a stream of its own.

/** A request took one of its requester's slots (before its own stream was opened). */
export const ApprovalSlotTaken = defineEvent<{
  requestedBy: string;
  approvalId: string;
  expiresAt: string;
  takenAt: string;
}>('ApprovalSlotTaken', 1);

/** Slots given back: their requests were decided, expired, never opened, or were duplicates. */
export const ApprovalSlotsFreed = defineEvent<{ requestedBy: string; approvalIds: string[] }>(
  'ApprovalSlotsFreed',
  1,
);

export const approvalSlotsStream = (principalId: string) =>
  `approval-slots-${createHash('sha256').update(principalId).digest('hex')}`;
