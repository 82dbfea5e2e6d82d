import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json.js';
import type { RecordedEvent } from '../../eventstore/event-store.port.js';
import {
  AuditCheckpointSealed,
  checkpointDigest,
  type CheckpointFields,
  type SignedCheckpoint,
} from '../../events/audit.events.js';
import { verifySignature } from '../audit-signing-key.js';

/**
 * The high-water mark: the last checkpoint signed (or seen signed) on this host, kept beside the
 * signing key, outside the event store. Whoever can edit the events cannot lower it, so a trail
 * cut back to an older checkpoint no longer holds the marked one.
 */
export interface AuditMark {
  sequence: number;
  /** `checkpointDigest` of that checkpoint: what the next one links to. */
  digest: string;
  /** The place in the global order it sealed up to. */
  toPosition: number;
  /** Its own position in the event store: the head it left behind. */
  position: number;
  /** When it was recorded in the event store. */
  signedAt: string;
}

export type SignedAuditMark = AuditMark & { signature: string };

/** A checkpoint as the event store holds it. */
export type PlacedCheckpoint = SignedCheckpoint & {
  position: number;
  revision: bigint;
  recordedAt: string;
};

export function placedCheckpoint(event: RecordedEvent): PlacedCheckpoint {
  return {
    ...AuditCheckpointSealed.dataOf(event),
    position: Number(event.position),
    revision: event.revision,
    recordedAt: event.recordedAt,
  };
}

/** A checkpoint known from elsewhere (the mark, or one an auditor kept): `<sequence>:<digest>`. */
export interface KnownCheckpoint {
  sequence: number;
  digest: string;
}

export type MarkProblem =
  'truncated' | 'diverged' | 'not-covered' | 'bad-signature' | 'broken-checkpoint-link';

/** Why a trail does not hold what is known of it. */
export interface MarkBreak {
  problem: MarkProblem;
  /** The first position no surviving checkpoint vouches for; null when the mark itself is bad. */
  firstBadPosition: number | null;
  message: string;
}

export type StoreVerdict =
  { ok: true; newest: PlacedCheckpoint | null } | ({ ok: false } & MarkBreak);

/** What the audit key signs for a mark; its shape differs from a checkpoint's, so it is never one. */
export function markDigest(mark: AuditMark): string {
  const body = canonicalJson({ kind: 'slipway-audit-mark', ...pick(mark) });
  return createHash('sha256').update(body).digest('hex');
}

export function markOf(checkpoint: PlacedCheckpoint): AuditMark {
  return {
    sequence: checkpoint.sequence,
    digest: checkpointDigest(checkpoint),
    toPosition: checkpoint.toPosition,
    position: checkpoint.position,
    signedAt: checkpoint.recordedAt,
  };
}

/** The mark's own fields, whatever else the object holds (a signature, a file's extras). */
export function pick(mark: AuditMark): AuditMark {
  const { sequence, digest, toPosition, position, signedAt } = mark;
  return { sequence, digest, toPosition, position, signedAt };
}

// At most 15 digits: every sequence that matches is a safe integer.
const EXPECTED = /^([1-9][0-9]{0,14}):([0-9a-f]{64})$/;
/** The text form `<sequence>:<digest>`, for `--expect` and `expectCheckpoint`. */
export const EXPECTED_CHECKPOINT_PATTERN = EXPECTED;

export function parseKnownCheckpoint(text: string): KnownCheckpoint | null {
  const match = EXPECTED.exec(text);
  if (!match) return null;
  return { sequence: Number(match[1]), digest: match[2] };
}

export const knownCheckpointText = (c: KnownCheckpoint): string => `${c.sequence}:${c.digest}`;

/** What a walk over a trail's checkpoints, in order, saw of one known checkpoint. */
export interface Sighting {
  found: { digest: string; position: number } | null;
  /** Position of the last checkpoint before the known one (0: none). */
  before: number;
  /** A checkpoint after the known one was seen. */
  after: boolean;
  last: { sequence: number; position: number } | null;
}

export const NOTHING_SEEN: Sighting = { found: null, before: 0, after: false, last: null };

/** Pure step of the walk: constant memory, so an export of any length can be checked. */
export function sight(
  known: KnownCheckpoint,
  seen: Sighting,
  checkpoint: { sequence: number; digest: string; position: number },
): Sighting {
  const { sequence, digest, position } = checkpoint;
  return {
    found: sequence === known.sequence ? { digest, position } : seen.found,
    before: sequence < known.sequence ? position : seen.before,
    after: seen.after || sequence > known.sequence,
    last: { sequence, position },
  };
}

/**
 * Why the trail walked does not hold `known`, or null when it does. `where` names the trail
 * ("the event store", "the export"); `what` the known checkpoint ("signed at …", "expected").
 */
export function missingCheckpoint(
  known: KnownCheckpoint,
  seen: Sighting,
  where: string,
  what: string,
): MarkBreak | null {
  if (seen.found?.digest === known.digest) return null;
  const named = `checkpoint ${known.sequence} ${what}`;
  if (seen.found) {
    return {
      problem: 'diverged',
      firstBadPosition: seen.before + 1,
      message: `${where} holds another checkpoint ${known.sequence} than the one ${what}: its history was rewritten`,
    };
  }
  if (seen.after) {
    return {
      problem: 'not-covered',
      firstBadPosition: seen.before + 1,
      message: `${where} holds checkpoints after ${named} but not that one`,
    };
  }
  const last = seen.last
    ? `its last checkpoint is ${seen.last.sequence}`
    : 'it holds no checkpoint';
  return {
    problem: 'truncated',
    firstBadPosition: (seen.last?.position ?? 0) + 1,
    message: `${where} ends before ${named} (${last})`,
  };
}

export const signedBy = (publicKeyPem: string, c: SignedCheckpoint): boolean =>
  verifySignature(publicKeyPem, checkpointDigest(c), c.signature);

/**
 * Judges the event store's checkpoints (in order; every one from the marked sequence on) against
 * the mark: the marked checkpoint must still be there, unchanged, and each later one must follow
 * it, signed by the audit key (another replica's seal). Answers the newest, which the mark may
 * move up to. Without a mark, the newest checkpoint is taken as it is, if the key signed it.
 */
export function judgeStore(
  mark: AuditMark | null,
  checkpoints: PlacedCheckpoint[],
  publicKeyPem: string,
): StoreVerdict {
  const newest = checkpoints.at(-1) ?? null;
  if (!mark) {
    if (newest && !signedBy(publicKeyPem, newest)) return unsigned(newest);
    return { ok: true, newest };
  }
  const seen = checkpoints.reduce(
    (s, c) => sight(mark, s, { ...c, digest: checkpointDigest(c) }),
    NOTHING_SEEN,
  );
  const missing = missingCheckpoint(mark, seen, 'the event store', `signed at ${mark.signedAt}`);
  if (missing) return { ok: false, ...missing };
  let previous = checkpoints.find((c) => c.sequence === mark.sequence)!;
  for (const c of checkpoints.filter((c) => c.sequence > mark.sequence)) {
    if (
      c.sequence !== previous.sequence + 1 ||
      c.previousCheckpointHash !== checkpointDigest(previous)
    )
      return {
        ok: false,
        problem: 'broken-checkpoint-link',
        firstBadPosition: c.position,
        message: `checkpoint ${c.sequence} does not follow checkpoint ${previous.sequence}`,
      };
    if (!signedBy(publicKeyPem, c)) return unsigned(c);
    previous = c;
  }
  return { ok: true, newest: previous };
}

function unsigned(c: PlacedCheckpoint): StoreVerdict {
  return {
    ok: false,
    problem: 'bad-signature',
    firstBadPosition: c.position,
    message: `checkpoint ${c.sequence} is not signed by the audit key`,
  };
}

/**
 * The last guard before signing `next` on top of `base` (the newest checkpoint, judged against
 * the mark): a sequence above the mark, on a chain through the marked checkpoint. Null: sign.
 */
export function refusalToSign(
  mark: AuditMark | null,
  base: CheckpointFields | null,
  next: Pick<CheckpointFields, 'sequence' | 'previousCheckpointHash'>,
): string | null {
  if (!mark) return null;
  const marked = `checkpoint ${mark.sequence} signed at ${mark.signedAt}`;
  if (next.sequence <= mark.sequence) {
    return `checkpoint ${next.sequence} would not come after ${marked}`;
  }
  if (!base || base.sequence < mark.sequence) {
    return `the chain it would extend ends before ${marked}`;
  }
  if (base.sequence === mark.sequence && checkpointDigest(base) !== mark.digest) {
    return `the chain it would extend holds another checkpoint ${mark.sequence} than ${marked}`;
  }
  if (
    next.sequence !== base.sequence + 1 ||
    next.previousCheckpointHash !== checkpointDigest(base)
  ) {
    return `checkpoint ${next.sequence} would not follow checkpoint ${base.sequence}`;
  }
  return null;
}
