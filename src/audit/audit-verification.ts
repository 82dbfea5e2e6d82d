import { Inject, Injectable } from '@nestjs/common';
import { badRequest } from '../common/app-error.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../eventstore/event-store.port.js';
import { PRIMARY_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { AuditSigningKey } from './audit-signing-key.js';
import { AUDIT_CHECKPOINTS_STREAM, type SignedCheckpoint } from '../events/audit.events.js';
import { AUDIT_CHAIN, AUDIT_SIGNING_KEY, type ChainLinkDoc } from './audit-sealer.js';
import { TrailVerifier, type TrailReport } from './trail-verifier.js';
import { positionAfter } from './chain-places.js';

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

type CheckpointEvent = RecordedEvent & { data: SignedCheckpoint };

/** Recomputes the chain from the event store and checks it against what was sealed. */
@Injectable()
export class AuditVerification {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
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
    return {
      ...verifier.finish(sealedTo || null),
      publicKey: this.key.publicKeyPem,
      fromPosition: Number(start),
      toPosition: walkedTo,
    };
  }
}
