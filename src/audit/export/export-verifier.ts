import { createHash } from 'node:crypto';
import { verifySignature } from '../audit-signing-key.js';
import { AuditCheckpointSealed } from '../audit.events.js';
import { TrailVerifier } from '../trail-verifier.js';
import { csvHeaderLine, decodeExport, splitSigned, type ExportFormat } from './export-codecs.js';
import {
  EXPORT_FORMAT,
  recordedEventOf,
  type ExportHeader,
  type ExportRecord,
  type ExportSignature,
} from './export-format.js';

export interface ExportReport {
  ok: boolean;
  problem: string | null;
  firstBadPosition: number | null;
  message: string;
  eventsVerified: number;
  checkpointsVerified: number;
  /** Events after the last checkpoint in the export: covered by the export signature only. */
  unsealedEvents: number;
  /** Whether the key used came from the auditor (true) or from the export itself (false). */
  keyFromAuditor: boolean;
}

const failure = (problem: string, message: string, at: number | null = null): ExportReport => ({
  ok: false,
  problem,
  firstBadPosition: at,
  message,
  eventsVerified: 0,
  checkpointsVerified: 0,
  unsealedEvents: 0,
  keyFromAuditor: false,
});

export function detectFormat(bytes: Buffer): ExportFormat {
  return bytes.subarray(0, 1).toString() === '{' ? 'ndjson' : 'csv';
}

/**
 * Offline: needs only the export and the public key. Checks the closing signature over every
 * byte, then recomputes the hash chain and every checkpoint's signature, link and hash.
 */
export function verifyExport(bytes: Buffer, publicKeyPem?: string): ExportReport {
  const format = detectFormat(bytes);
  const { signed, last } = splitSigned(bytes);
  let signature: ExportSignature;
  let records: ExportRecord[];
  try {
    const tail = decodeExport(format, format === 'csv' ? csvHeaderLine() + last : last);
    if (tail.length !== 1 || tail[0].kind !== 'signature') throw new Error('no signature');
    signature = tail[0];
    records = decodeExport(format, signed.toString('utf8'));
  } catch {
    return failure('malformed', 'The export is incomplete or altered: it does not parse');
  }
  const header = records[0];
  if (!header || header.kind !== 'header' || header.format !== EXPORT_FORMAT) {
    return failure('malformed', 'The export does not start with its header');
  }
  const key = publicKeyPem ?? (header as ExportHeader).publicKey;
  const digest = createHash('sha256').update(signed).digest('hex');
  if (digest !== signature.sha256 || !verifySignature(key, digest, signature.signature)) {
    return failure('bad-export-signature', 'The export was altered after it was signed');
  }
  const verifier = new TrailVerifier(key, () => undefined);
  if (header.anchor) verifier.startAfter(header.anchor, header.anchor.position);
  let events = 0;
  let unsealed = 0;
  for (const record of records.slice(1)) {
    if (record.kind !== 'event') return failure('malformed', 'Unexpected record in the export');
    const event = recordedEventOf(record.event);
    verifier.accept(event);
    events += 1;
    unsealed = event.type === AuditCheckpointSealed.type ? 0 : unsealed + 1;
  }
  if (events !== signature.events) {
    return failure(
      'malformed',
      `The export holds ${events} events, its signature ${signature.events}`,
    );
  }
  const report = verifier.finish(null);
  return {
    ok: report.ok,
    problem: report.problem,
    firstBadPosition: report.firstBadPosition,
    message: report.ok
      ? `${report.message}; export signature valid` +
        (unsealed > 0
          ? `; ${unsealed} events after the last checkpoint are covered by the export signature only`
          : '')
      : report.message,
    eventsVerified: report.eventsVerified,
    checkpointsVerified: report.checkpointsVerified,
    unsealedEvents: unsealed,
    keyFromAuditor: publicKeyPem !== undefined,
  };
}
