import type { RecordedEvent } from '../eventstore/event-store.port.js';
import { verifySignature } from './audit-signing-key.js';
import {
  AuditCheckpointSealed,
  checkpointDigest,
  type SignedCheckpoint,
} from '../events/audit.events.js';
import { chainLink, GENESIS } from './hash-chain.js';

export type TrailProblem =
  | 'deleted'
  | 'reordered'
  | 'modified'
  | 'truncated'
  | 'bad-signature'
  | 'broken-checkpoint-link'
  // Against what is known outside the store (the mark, an expected checkpoint), and entries:
  | 'diverged'
  | 'not-covered'
  | 'entry-missing'
  | 'entry-mismatch';

export interface TrailReport {
  ok: boolean;
  eventsVerified: number;
  checkpointsVerified: number;
  firstBadPosition: number | null;
  problem: TrailProblem | null;
  message: string;
}

export interface TrailVerifierOptions {
  /**
   * The store's positions are 1, 2, 3… (SQLite): a gap is a deleted event, named exactly. On a
   * sparse store gaps are normal, and a deletion shows at the next checkpoint, which sealed
   * more events than are left, or through the recorded link of the place it emptied.
   */
  dense: boolean;
}

/** What the chain knows of the event at a place, until a checkpoint covers it. */
interface Link {
  hash: string;
  position: number;
  stream: string;
  revision: bigint;
}

/**
 * Walks the global order once, numbering events by place (1, 2, 3…, which `chainLink` hashes):
 * positions must increase (a step back is a reordering; on a dense store a gap is a deleted
 * event), each link must equal the one recorded for its place when it was sealed (a difference
 * names the first modified event), and each checkpoint must be signed, linked to the previous
 * one, and match the chain recomputed up to its place. Problems are reported at the store
 * position of the event concerned.
 */
export class TrailVerifier {
  private link = GENESIS;
  private place = 0;
  private lastPosition = 0;
  private events = 0;
  private checkpoints = 0;
  private previousCheckpoint = GENESIS;
  private readonly links = new Map<number, Link>();
  private failure: TrailReport | null = null;
  private readonly dense: boolean;

  constructor(
    private readonly publicKeyPem: string,
    /** The link recorded for a place when it was sealed, if known. */
    private readonly recordedLink: (place: number) => string | undefined,
    options: TrailVerifierOptions = { dense: true },
  ) {
    this.dense = options.dense;
  }

  /** The place the next accepted event takes. */
  get nextPlace(): number {
    return this.place + 1;
  }

  /**
   * Starts after a signed checkpoint instead of at the genesis, so a range can be verified
   * without rehashing everything before it. The checkpoint's signature is checked first.
   */
  startAfter(checkpoint: SignedCheckpoint, at: number): void {
    if (!verifySignature(this.publicKeyPem, checkpointDigest(checkpoint), checkpoint.signature)) {
      return this.fail(
        'bad-signature',
        at,
        `checkpoint ${checkpoint.sequence} is not signed by the audit key`,
      );
    }
    this.link = checkpoint.chainHash;
    this.place = checkpoint.toPosition;
    // On a sparse store the anchor's own position is not known here; positions after it only
    // have to increase from the first event on.
    this.lastPosition = this.dense ? checkpoint.toPosition : 0;
    this.previousCheckpoint = checkpoint.previousCheckpointHash;
    this.links.set(checkpoint.toPosition, {
      hash: checkpoint.chainHash,
      position: this.lastPosition,
      stream: checkpoint.toStream ?? '',
      revision: BigInt(checkpoint.toRevision ?? -1),
    });
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /**
   * `given`: the event's link as an export states it, for an event shown with its credential
   * fields redacted, whose link cannot be recomputed from what is shown. The chain continues
   * from it, so the next checkpoint still has to match.
   */
  accept(event: RecordedEvent, given?: string): void {
    if (this.failure) return;
    const position = Number(event.position);
    if (this.dense && position > this.lastPosition + 1)
      return this.fail(
        'deleted',
        this.lastPosition + 1,
        `event ${this.lastPosition + 1} is missing`,
      );
    if (position <= this.lastPosition)
      return this.fail('reordered', position, `event ${position} appears out of order`);
    if (event.type === AuditCheckpointSealed.type)
      this.checkCheckpoint(AuditCheckpointSealed.dataOf(event), position);
    if (this.failure) return;
    const place = this.place + 1;
    this.link = given ?? chainLink(this.link, event, place);
    const recorded = this.recordedLink(place);
    if (recorded !== undefined && recorded !== this.link)
      return this.fail('modified', position, `event ${position} differs from what was sealed`);
    this.links.set(place, {
      hash: this.link,
      position,
      stream: event.stream,
      revision: event.revision,
    });
    this.place = place;
    this.lastPosition = position;
    this.events += 1;
  }

  /** Call after the last event: a checkpoint beyond the end means the tail was cut off. */
  finish(lastCheckpointTo: number | null): TrailReport {
    if (!this.failure && lastCheckpointTo !== null && lastCheckpointTo > this.place) {
      const missing = `${this.place + 1}-${lastCheckpointTo}`;
      this.fail(
        'truncated',
        this.dense ? this.place + 1 : this.lastPosition + 1,
        this.dense
          ? `events ${missing} were sealed but are missing`
          : `the events at places ${missing} of the order were sealed but are missing`,
      );
    }
    return (
      this.failure ?? {
        ok: true,
        eventsVerified: this.events,
        checkpointsVerified: this.checkpoints,
        firstBadPosition: null,
        problem: null,
        message: `${this.events} events, ${this.checkpoints} checkpoints verified`,
      }
    );
  }

  private checkCheckpoint(c: SignedCheckpoint, at: number): void {
    const digest = checkpointDigest(c);
    if (!verifySignature(this.publicKeyPem, digest, c.signature))
      return this.fail(
        'bad-signature',
        at,
        `checkpoint ${c.sequence} is not signed by the audit key`,
      );
    if (c.previousCheckpointHash !== this.previousCheckpoint)
      return this.fail(
        'broken-checkpoint-link',
        at,
        `checkpoint ${c.sequence} does not follow the previous one`,
      );
    if (c.toPosition > this.place)
      // Only reachable on a sparse store: on a dense one the gap was named when it was passed.
      return this.fail(
        'deleted',
        at,
        `checkpoint ${c.sequence} sealed ${c.toPosition} events, only ${this.place} precede it`,
      );
    const expected = this.links.get(c.toPosition);
    const named =
      c.toStream === undefined ||
      (expected !== undefined &&
        expected.stream === c.toStream &&
        expected.revision === BigInt(c.toRevision ?? -1));
    if (expected === undefined || expected.hash !== c.chainHash || !named) {
      const firstDifferent = [...this.links.entries()].find(
        ([place, link]) =>
          place <= c.toPosition &&
          this.recordedLink(place) !== undefined &&
          this.recordedLink(place) !== link.hash,
      );
      const position = firstDifferent?.[1].position ?? expected?.position ?? at;
      return this.fail(
        'modified',
        position,
        `the chain up to ${c.toPosition} no longer matches checkpoint ${c.sequence}`,
      );
    }
    this.previousCheckpoint = digest;
    this.checkpoints += 1;
    for (const place of this.links.keys()) if (place < c.toPosition) this.links.delete(place);
  }

  private fail(problem: TrailProblem, position: number, message: string): void {
    this.failure ??= {
      ok: false,
      eventsVerified: this.events,
      checkpointsVerified: this.checkpoints,
      firstBadPosition: position,
      problem,
      message,
    };
  }
}
