import { createHash } from 'node:crypto';
import { defineEvent } from '../eventstore/define-event.js';
import { canonicalJson } from '../common/canonical-json.js';

/** A checkpoint: where the chain stood (see AuditCheckpointSealed) and what it links to. */
export type CheckpointFields = {
  sequence: number;
  toPosition: number;
  toStream?: string;
  toRevision?: number;
  chainHash: string;
  previousCheckpointHash: string;
};

/** A checkpoint with its signature over checkpointDigest. */
export type SignedCheckpoint = CheckpointFields & { signature: string };

/**
 * Stream `audit-checkpoints`: the chain as it stood after the `toPosition`-th event of the global
 * order, signed. `toPosition` is that place (1, 2, 3…), equal to the event's position on SQLite.
 * `toStream`/`toRevision` name that event in a way a copy to another store keeps (positions
 * change, streams and revisions do not); checkpoints sealed before they existed lack them.
 */
export const AuditCheckpointSealed = defineEvent<SignedCheckpoint>('AuditCheckpointSealed', 1);

export const AUDIT_CHECKPOINTS_STREAM = 'audit-checkpoints';

/**
 * The periodic verification found a break in the trail: what (`problem`, as `verifyAuditTrail`
 * names it), where (`firstBadPosition`) and why (`reason`), and the stretch it was checking.
 * On its own stream per break, appended only while that stream is new: noticed once.
 */
export const AuditVerificationFailed = defineEvent<{
  problem: string;
  firstBadPosition: number;
  reason: string;
  fromPosition: number;
  toPosition: number;
}>('AuditVerificationFailed', 1);

export const auditBreakStream = (problem: string, position: number) =>
  `audit-verification-failed-${problem}-${position}`;

/**
 * What a checkpoint's signature covers, and what the next checkpoint links to. The event it
 * ends at is covered when named, so a checkpoint cannot be moved onto another event; earlier
 * checkpoints, which do not name it, digest exactly as they did.
 */
export function checkpointDigest(c: CheckpointFields): string {
  const body = canonicalJson({
    sequence: c.sequence,
    toPosition: c.toPosition,
    ...(c.toStream !== undefined ? { toStream: c.toStream, toRevision: c.toRevision } : {}),
    chainHash: c.chainHash,
    previousCheckpointHash: c.previousCheckpointHash,
  });
  return createHash('sha256').update(body).digest('hex');
}
