import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import { verifySignature } from '../audit-signing-key.js';
import { AuditCheckpointSealed } from '../../events/audit.events.js';
import { TrailVerifier } from '../trail-verifier.js';
import {
  csvHeaderLine,
  decodeCsvRow,
  decodeExport,
  decodeNdjsonLine,
  splitSigned,
  type ExportFormat,
} from './export-codecs.js';
import {
  EXPORT_FORMAT,
  recordedEventOf,
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

class Malformed extends Error {}

function detectFormat(firstByte: number | undefined): ExportFormat {
  return firstByte === 0x7b ? 'ndjson' : 'csv';
}

function parseSignature(format: ExportFormat, last: string): ExportSignature {
  const tail = decodeExport(format, format === 'csv' ? csvHeaderLine() + last : last);
  if (tail.length !== 1 || tail[0].kind !== 'signature') throw new Malformed('no signature');
  return tail[0];
}

/**
 * Offline: needs only the export and the public key. Checks the closing signature over every
 * byte, then recomputes the hash chain and every checkpoint's signature, link and hash.
 */
async function check(
  records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>,
  signature: ExportSignature,
  signedDigest: string,
  publicKeyPem: string | undefined,
): Promise<ExportReport> {
  let verifier: TrailVerifier | null = null;
  let key = publicKeyPem;
  let events = 0;
  let unsealed = 0;
  for await (const record of records) {
    if (!verifier) {
      if (record.kind !== 'header' || record.format !== EXPORT_FORMAT) {
        return failure('malformed', 'The export does not start with its header');
      }
      key ??= record.publicKey;
      if (
        signedDigest !== signature.sha256 ||
        !verifySignature(key, signedDigest, signature.signature)
      ) {
        return failure('bad-export-signature', 'The export was altered after it was signed');
      }
      verifier = new TrailVerifier(key, () => undefined, {
        dense: record.positions !== 'sparse',
      });
      if (record.anchor) verifier.startAfter(record.anchor, record.anchor.position);
      continue;
    }
    if (record.kind !== 'event') return failure('malformed', 'Unexpected record in the export');
    const event = recordedEventOf(record.event);
    verifier.accept(event);
    events += 1;
    unsealed = event.type === AuditCheckpointSealed.type ? 0 : unsealed + 1;
  }
  if (!verifier) return failure('malformed', 'The export is empty');
  if (events !== signature.events) {
    return failure(
      'malformed',
      `The export holds ${events} events, its signature ${signature.events}`,
    );
  }
  const report = verifier.finish(null);
  const tail =
    unsealed > 0
      ? `; ${unsealed} events after the last checkpoint are covered by the export signature only`
      : '';
  return {
    ok: report.ok,
    problem: report.problem,
    firstBadPosition: report.firstBadPosition,
    message: report.ok ? `${report.message}; export signature valid${tail}` : report.message,
    eventsVerified: report.eventsVerified,
    checkpointsVerified: report.checkpointsVerified,
    unsealedEvents: unsealed,
    keyFromAuditor: publicKeyPem !== undefined,
  };
}

const TAIL_BYTES = 64 * 1024;

/**
 * Verifies an export file in constant memory: the signature line is read from the end, the
 * bytes before it are hashed as a stream, and the records are parsed as a stream.
 */
export async function verifyExportFile(path: string, publicKeyPem?: string): Promise<ExportReport> {
  const { size } = await stat(path);
  const handle = await open(path, 'r');
  let tail: Buffer;
  let first: number | undefined;
  try {
    const length = Math.min(size, TAIL_BYTES);
    tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
    const head = Buffer.alloc(1);
    first = (await handle.read(head, 0, 1, 0)).bytesRead === 1 ? head[0] : undefined;
  } finally {
    await handle.close();
  }
  const format = detectFormat(first);
  const { signed, last } = splitSigned(tail);
  const signedLength = size - tail.length + signed.length;
  if (signed.length === 0 && size > tail.length) {
    return failure('malformed', 'The export is incomplete or altered: no closing signature');
  }
  const range = () => createReadStream(path, { start: 0, end: Math.max(0, signedLength - 1) });
  try {
    const signature = parseSignature(format, last);
    const hash = createHash('sha256');
    if (signedLength > 0) for await (const chunk of range()) hash.update(chunk as Buffer);
    const digest = hash.digest('hex');
    return await check(
      streamRecords(format, signedLength > 0 ? range : null),
      signature,
      digest,
      publicKeyPem,
    );
  } catch {
    return failure('malformed', 'The export is incomplete or altered: it does not parse');
  }
}

async function* streamRecords(
  format: ExportFormat,
  range: (() => NodeJS.ReadableStream) | null,
): AsyncGenerator<ExportRecord> {
  if (!range) return;
  if (format === 'ndjson') {
    for await (const line of createInterface({ input: range(), crlfDelay: Infinity })) {
      if (line.trim() !== '') yield decodeNdjsonLine(line);
    }
    return;
  }
  for await (const row of range().pipe(parse({ columns: true }))) {
    yield decodeCsvRow(row as Record<string, string>);
  }
}
