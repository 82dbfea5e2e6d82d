import { Inject, Injectable } from '@nestjs/common';
import { badRequest } from '../common/app-error.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../eventstore/event-store.port.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { AUDIT_SIGNING_KEY, AuditSigningKey } from './audit-signing-key.js';
import {
  AUDIT_CHECKPOINTS_STREAM,
  checkpointDigest,
  type SignedCheckpoint,
} from '../events/audit.events.js';
import { AUDIT_CHAIN, type ChainLinkDoc } from './audit-sealer.js';
import { TrailVerifier, type TrailReport } from './trail-verifier.js';
import { positionAfter } from './chain-places.js';
import type { MarkReader } from './mark/audit-mark-file.js';
import {
  judgeStore,
  missingCheckpoint,
  NOTHING_SEEN,
  placedCheckpoint,
  sight,
  type KnownCheckpoint,
  type MarkBreak,
  type PlacedCheckpoint,
} from './mark/audit-mark.js';
import { TrailEntriesCheck } from './trail/trail-entries-check.js';
import type { EntryBreak } from './trail/entry-check.js';

export interface VerificationRange {
  fromPosition?: number;
  toPosition?: number;
  /** A checkpoint kept outside Slipway, which the event store must still hold. */
  expectCheckpoint?: KnownCheckpoint;
}

export type VerificationReport = TrailReport & {
  publicKey: string;
  /** The positions actually walked: from the genesis or the signed checkpoint before `fromPosition`. */
  fromPosition: number;
  toPosition: number | null;
  /**
   * The newest checkpoint in the event store. Kept outside Slipway (`<sequence>:<digest>`), it is
   * what `expectCheckpoint` and `verify-export --expect` check a later trail against.
   */
  lastCheckpoint: { sequence: number; digest: string; toPosition: number; position: number } | null;
  /** Entries of the `audit_trail` read model found to be what their events make. */
  entriesVerified: number;
};

/** The mark's Nest token: the process's AuditMarks (a file of its own for the migration). */
export const AUDIT_MARK_READER = Symbol('AUDIT_MARK_READER');

type CheckpointEvent = RecordedEvent & { data: SignedCheckpoint };

/**
 * Recomputes the chain from the event store and checks it against what was sealed, then
 * against what is known of it outside the store (the mark beside the signing key, a checkpoint
 * an auditor kept), then the read model's entries against their events.
 */
@Injectable()
export class AuditVerification {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
    @Inject(AUDIT_SIGNING_KEY) private readonly key: AuditSigningKey,
    @Inject(AUDIT_MARK_READER) private readonly mark: MarkReader | null,
    @Inject(READ_STORE) private readonly reads: ReadStore | null,
  ) {}

  async verify(range: VerificationRange = {}): Promise<VerificationReport> {
    const { fromPosition, toPosition } = range;
    if (fromPosition !== undefined && toPosition !== undefined && fromPosition > toPosition) {
      throw badRequest('fromPosition must not be after toPosition', [
        { path: 'toPosition', message: 'must be at least fromPosition' },
      ]);
    }
    const recorded = new Map<number, string>();
    const chain = this.primary.collection<ChainLinkDoc>(AUDIT_CHAIN.name);
    const dense = this.events.positions === 'dense';
    const verifier = new TrailVerifier(this.key.publicKeyPem, (place) => recorded.get(place), {
      dense,
    });
    const checkpoints = (await this.events.readStream(
      AUDIT_CHECKPOINTS_STREAM,
    )) as CheckpointEvent[];
    // A range starts from the last signed checkpoint sealed before it: its hash is the anchor.
    const anchor = fromPosition
      ? checkpoints.filter((c) => Number(c.position) < fromPosition).at(-1)
      : undefined;
    if (anchor) verifier.startAfter(anchor.data, Number(anchor.position));
    const start = await positionAfter(this.events, anchor?.data);
    const end = toPosition ?? Number.MAX_SAFE_INTEGER;
    let from = start;
    let walkedTo: number | null = null;
    const entries = this.reads ? new TrailEntriesCheck(this.reads) : null;
    while (!verifier.failed && Number(from) <= end) {
      const batch = (await this.events.readAll(from, 1000)).filter(
        (e) => Number(e.position) <= end,
      );
      if (batch.length === 0) break;
      // The links recorded for the places these events take (places, not positions: see
      // chainLink), to name the first event that differs.
      const first = verifier.nextPlace;
      recorded.clear();
      const links = await chain.find(
        { position: { $gte: first, $lte: first + batch.length - 1 } },
        { sort: { position: 1 }, limit: 1000 },
      );
      for (const l of links.items) recorded.set(l.position, l.hash);
      for (const event of batch) verifier.accept(event);
      await entries?.accept(batch);
      walkedTo = Number(batch[batch.length - 1].position);
      from = batch[batch.length - 1].position + 1n;
    }
    // The furthest sealed place, from the checkpoints and from the recorded links: a tail cut
    // off together with its checkpoint still leaves its links behind. A range that ends early
    // says nothing of the tail (on a dense store, places and positions compare directly).
    const lastTo = checkpoints.length ? Number(checkpoints.at(-1)!.data.toPosition) : 0;
    const lastLink =
      (await chain.find({}, { sort: { position: -1 }, limit: 1 })).items[0]?.position ?? 0;
    const sealedTo =
      toPosition === undefined || dense ? Math.min(Math.max(lastTo, lastLink), end) : 0;
    const trail = verifier.finish(sealedTo || null);
    const placed = checkpoints.map(placedCheckpoint);
    const newest = placed.at(-1);
    // The events first (they name the exact position), then what is known from outside.
    const known = trail.ok
      ? (this.markBreak(placed) ??
        expectedBreak(range.expectCheckpoint, placed) ??
        entries?.failure ??
        null)
      : null;
    return {
      ...(known ? broken(trail, known) : trail),
      publicKey: this.key.publicKeyPem,
      fromPosition: Number(start),
      toPosition: walkedTo,
      lastCheckpoint: newest
        ? {
            sequence: newest.sequence,
            digest: checkpointDigest(newest),
            toPosition: newest.toPosition,
            position: newest.position,
          }
        : null,
      entriesVerified: entries?.checked ?? 0,
    };
  }

  /** Whether the store still holds the checkpoint marked beside the signing key. */
  private markBreak(checkpoints: PlacedCheckpoint[]): MarkBreak | null {
    const read = this.mark?.read() ?? { kind: 'none' };
    if (read.kind === 'invalid') {
      return {
        problem: 'bad-signature',
        firstBadPosition: null,
        message: `the audit mark ${read.reason}`,
      };
    }
    if (read.kind === 'none') return null;
    const verdict = judgeStore(read.mark, checkpoints, this.key.publicKeyPem);
    return verdict.ok ? null : verdict;
  }
}

function expectedBreak(
  expected: KnownCheckpoint | undefined,
  checkpoints: PlacedCheckpoint[],
): MarkBreak | null {
  if (!expected) return null;
  const seen = checkpoints.reduce(
    (s, c) => sight(expected, s, { ...c, digest: checkpointDigest(c) }),
    NOTHING_SEEN,
  );
  return missingCheckpoint(expected, seen, 'the event store', 'expected');
}

function broken(chain: TrailReport, known: MarkBreak | EntryBreak): TrailReport {
  return { ...chain, ok: false, ...known };
}
