import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { AuditSigningKey } from './audit-signing-key.js';
import { AUDIT_CHECKPOINTS_STREAM } from './audit.events.js';
import { AUDIT_SIGNING_KEY, type ChainLinkDoc } from './audit-sealer.js';
import { TrailVerifier, type TrailReport } from './trail-verifier.js';

/** Recomputes the whole chain from the event store and checks it against what was sealed. */
@Injectable()
export class AuditVerification {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(AUDIT_SIGNING_KEY) private readonly key: AuditSigningKey,
  ) {}

  async verify(): Promise<TrailReport & { publicKey: string }> {
    const recorded = new Map<number, string>();
    const chain = this.reads.collection<ChainLinkDoc>('audit_chain');
    const verifier = new TrailVerifier(this.key.publicKeyPem, (p) => recorded.get(p));
    let from = 1n;
    for (;;) {
      const batch = await this.events.readAll(from, 1000);
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
      if (verifier.failed) break;
      from = batch[batch.length - 1].position + 1n;
    }
    // The furthest sealed position, from the checkpoints and from the recorded links: a tail cut
    // off together with its checkpoint still leaves its links behind.
    const checkpoints = await this.events.readStream(AUDIT_CHECKPOINTS_STREAM);
    const lastTo = checkpoints.length
      ? Number((checkpoints.at(-1)!.data as { toPosition: number }).toPosition)
      : 0;
    const lastLink =
      (await chain.find({}, { sort: { position: -1 }, limit: 1 })).items[0]?.position ?? 0;
    const sealedTo = Math.max(lastTo, lastLink);
    return { ...verifier.finish(sealedTo || null), publicKey: this.key.publicKeyPem };
  }
}
