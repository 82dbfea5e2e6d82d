import { Inject, Injectable } from '@nestjs/common';
import { badRequest } from '../common/app-error.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../eventstore/event-store.port.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { AuditSigningKey } from './audit-signing-key.js';
import { AUDIT_CHECKPOINTS_STREAM, type CheckpointFields } from '../events/audit.events.js';
import { AUDIT_SIGNING_KEY, type ChainLinkDoc } from './audit-sealer.js';
import { TrailVerifier, type TrailReport } from './trail-verifier.js';

export interface VerificationRange {
  fromPosition?: number;
  toPosition?: number;
}

export type VerificationReport = TrailReport & {
  publicKey: string;
  /** The positions actually walked: from the genesis or the signed checkpoint before `fromPosition`. */
  fromPosition: number;
  toPosition: number | null;
};

type CheckpointEvent = RecordedEvent & { data: CheckpointFields & { signature: string } };

/** Recomputes the chain from the event store and checks it against what was sealed. */
@Injectable()
export class AuditVerification {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(AUDIT_SIGNING_KEY) private readonly key: AuditSigningKey,
  ) {}

  async verify(range: VerificationRange = {}): Promise<VerificationReport> {
    const { fromPosition, toPosition } = range;
    if (fromPosition !== undefined && toPosition !== undefined && fromPosition > toPosition) {
      throw badRequest('fromPosition must not be after toPosition', [
        { path: 'toPosition', message: 'must be at least fromPosition' },
      ]);
    }
    const recorded = new Map<number, string>();
    const chain = this.reads.collection<ChainLinkDoc>('audit_chain');
    const verifier = new TrailVerifier(this.key.publicKeyPem, (p) => recorded.get(p));
    const checkpoints = (await this.events.readStream(
      AUDIT_CHECKPOINTS_STREAM,
    )) as CheckpointEvent[];
    // A range starts from the last signed checkpoint sealed before it: its hash is the anchor.
    const anchor = fromPosition
      ? checkpoints.filter((c) => Number(c.position) < fromPosition).at(-1)
      : undefined;
    if (anchor) verifier.startAfter(anchor.data, Number(anchor.position));
    const start = anchor ? anchor.data.toPosition + 1 : 1;
    const end = toPosition ?? Number.MAX_SAFE_INTEGER;
    let from = BigInt(start);
    let walkedTo: number | null = null;
    while (!verifier.failed && Number(from) <= end) {
      const batch = (await this.events.readAll(from, 1000)).filter(
        (e) => Number(e.position) <= end,
      );
      if (batch.length === 0) break;
      const first = Number(batch[0].position);
      const last = Number(batch[batch.length - 1].position);
      recorded.clear();
      const links = await chain.find(
        { position: { $gte: first, $lte: last } },
        { sort: { position: 1 }, limit: 1000 },
      );
      for (const l of links.items) recorded.set(l.position, l.hash);
      for (const event of batch) verifier.accept(event);
      walkedTo = last;
      from = batch[batch.length - 1].position + 1n;
    }
    // The furthest sealed position, from the checkpoints and from the recorded links: a tail cut
    // off together with its checkpoint still leaves its links behind.
    const lastTo = checkpoints.length ? Number(checkpoints.at(-1)!.data.toPosition) : 0;
    const lastLink =
      (await chain.find({}, { sort: { position: -1 }, limit: 1 })).items[0]?.position ?? 0;
    const sealedTo = Math.min(Math.max(lastTo, lastLink), end);
    return {
      ...verifier.finish(sealedTo || null),
      publicKey: this.key.publicKeyPem,
      fromPosition: start,
      toPosition: walkedTo,
    };
  }
}
