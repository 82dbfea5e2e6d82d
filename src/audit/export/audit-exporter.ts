import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { auditEntryOf } from '../../../projections/audit-trail.projection.js';
import { EVENT_STORE, type EventStore } from '../../eventstore/event-store.port.js';
import { AUDIT_SIGNING_KEY } from '../audit-sealer.js';
import type { AuditSigningKey } from '../audit-signing-key.js';
import { AUDIT_CHECKPOINTS_STREAM, AuditCheckpointSealed } from '../../events/audit.events.js';
import { EntryResolver } from '../trail/entry-resolver.js';
import { positionAfter } from '../chain-places.js';
import { chainLink, GENESIS } from '../hash-chain.js';
import { csvHeaderLine, encodeRecord, type ExportFormat } from './export-codecs.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from './export-format.js';
import { CREDENTIAL_FIELDS, exportedEvent } from './export-redaction.js';

const BATCH = 500;

/**
 * Produces an export piece by piece (a batch of events at a time, never the whole set), with
 * the events as stored (credential fields redacted, with the link the chain continues from),
 * readable entries, the checkpoints among them, and a closing signature over every byte before it.
 */
@Injectable()
export class AuditExporter {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(AUDIT_SIGNING_KEY) private readonly key: AuditSigningKey,
    private readonly resolver: EntryResolver,
  ) {}

  async *chunks(
    format: ExportFormat,
    range: { fromPosition?: number; toPosition?: number },
  ): AsyncGenerator<string> {
    const hash = createHash('sha256');
    const emit = (text: string) => {
      hash.update(text);
      return text;
    };
    const checkpoints = await this.events.readStream(AUDIT_CHECKPOINTS_STREAM);
    const before = range.fromPosition ?? 1;
    const anchorEvent = checkpoints.filter((c) => Number(c.position) < before).at(-1);
    const anchorData = anchorEvent && AuditCheckpointSealed.dataOf(anchorEvent);
    const start = Number(await positionAfter(this.events, anchorData));
    const end = range.toPosition ?? Number(await this.events.headPosition());
    const header: ExportHeader = {
      kind: 'header',
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: new Date().toISOString(),
      publicKey: this.key.publicKeyPem,
      fromPosition: start,
      toPosition: end,
      positions: this.events.positions,
      anchor:
        anchorData && anchorEvent
          ? { ...anchorData, position: Number(anchorEvent.position) }
          : null,
      redactedFields: [...CREDENTIAL_FIELDS],
    };
    if (format === 'csv') yield emit(csvHeaderLine());
    yield emit(encodeRecord(format, header));
    let count = 0;
    let from = BigInt(start);
    // The chain as a verifier recomputes it, from the anchor on: a redacted event carries its link.
    let link = anchorData?.chainHash ?? GENESIS;
    let place = anchorData?.toPosition ?? 0;
    // A range that begins after the last event holds nothing (not even the chain before it).
    const nothing = range.fromPosition !== undefined && range.fromPosition > end;
    while (!nothing && Number(from) <= end) {
      const batch = (await this.events.readAll(from, BATCH)).filter(
        (e) => Number(e.position) <= end,
      );
      if (batch.length === 0) break;
      const last = Number(batch[batch.length - 1].position);
      // Each entry from its own event, as the projection makes it: the read model may not hold
      // the newest events yet (the export reads to the store's head), nor what was written there.
      const views = new Map(
        (await this.resolver.resolve(batch.map(auditEntryOf))).map((v) => [v.position, v]),
      );
      let text = '';
      for (const event of batch) {
        const entry = views.get(Number(event.position)) ?? null;
        place += 1;
        link = chainLink(link, event, place);
        text += encodeRecord(format, { kind: 'event', ...exportedEvent(event, link), entry });
      }
      count += batch.length;
      yield emit(text);
      from = BigInt(last) + 1n;
    }
    const sha256 = hash.digest('hex');
    yield encodeRecord(format, {
      kind: 'signature',
      sha256,
      signature: this.key.sign(sha256),
      events: count,
    });
  }
}
