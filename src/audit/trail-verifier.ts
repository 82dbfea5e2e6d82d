import type { RecordedEvent } from '../eventstore/event-store.port.js';
import { verifySignature } from './audit-signing-key.js';
import {
  AuditCheckpointSealed,
  checkpointDigest,
  type CheckpointFields,
} from '../events/audit.events.js';
import { chainLink, GENESIS } from './hash-chain.js';

export type TrailProblem =
  'deleted' | 'reordered' | 'modified' | 'truncated' | 'bad-signature' | 'broken-checkpoint-link';

export interface TrailReport {
  ok: boolean;
  eventsVerified: number;
  checkpointsVerified: number;
  firstBadPosition: number | null;
  problem: TrailProblem | null;
  message: string;
}

/**
 * Walks the global order once: positions must follow on (a gap is a deleted event, a step back a
 * reordering), each link must equal the one recorded when it was sealed (a difference names the
 * first modified event), and each checkpoint must be signed, linked to the previous one, and
 * match the chain recomputed up to its position.
 */
export class TrailVerifier {
  private link = GENESIS;
  private lastPosition = 0;
  private events = 0;
  private checkpoints = 0;
  private previousCheckpoint = GENESIS;
  private readonly links = new Map<number, string>();
  private failure: TrailReport | null = null;

  constructor(
    private readonly publicKeyPem: string,
    private readonly recordedLink: (position: number) => string | undefined,
  ) {}

  /**
   * Starts after a signed checkpoint instead of at the genesis, so a range can be verified
   * without rehashing everything before it. The checkpoint's signature is checked first.
   */
  startAfter(checkpoint: CheckpointFields & { signature: string }, at: number): void {
    if (!verifySignature(this.publicKeyPem, checkpointDigest(checkpoint), checkpoint.signature)) {
      return this.fail(
        'bad-signature',
        at,
        `checkpoint ${checkpoint.sequence} is not signed by the audit key`,
      );
    }
    this.link = checkpoint.chainHash;
    this.lastPosition = checkpoint.toPosition;
    this.previousCheckpoint = checkpoint.previousCheckpointHash;
    this.links.set(checkpoint.toPosition, checkpoint.chainHash);
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  accept(event: RecordedEvent): void {
    if (this.failure) return;
    const position = Number(event.position);
    if (position > this.lastPosition + 1)
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
    this.link = chainLink(this.link, event);
    const recorded = this.recordedLink(position);
    if (recorded !== undefined && recorded !== this.link)
      return this.fail('modified', position, `event ${position} differs from what was sealed`);
    this.links.set(position, this.link);
    this.lastPosition = position;
    this.events += 1;
  }

  /** Call after the last event: a checkpoint beyond the end means the tail was cut off. */
  finish(lastCheckpointTo: number | null): TrailReport {
    if (!this.failure && lastCheckpointTo !== null && lastCheckpointTo > this.lastPosition) {
      this.fail(
        'truncated',
        this.lastPosition + 1,
        `events ${this.lastPosition + 1}-${lastCheckpointTo} were sealed but are missing`,
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

  private checkCheckpoint(c: CheckpointFields & { signature: string }, at: number): void {
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
    const expected = this.links.get(c.toPosition);
    if (expected === undefined || expected !== c.chainHash) {
      const firstDifferent = [...this.links.keys()].find(
        (p) =>
          p <= c.toPosition &&
          this.recordedLink(p) !== undefined &&
          this.recordedLink(p) !== this.links.get(p),
      );
      return this.fail(
        'modified',
        firstDifferent ?? c.toPosition,
        `the chain up to ${c.toPosition} no longer matches checkpoint ${c.sequence}`,
      );
    }
    this.previousCheckpoint = digest;
    this.checkpoints += 1;
    for (const p of this.links.keys()) if (p < c.toPosition) this.links.delete(p);
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
