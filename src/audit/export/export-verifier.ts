import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import { verifySignature } from '../audit-signing-key.js';
import { AuditCheckpointSealed } from '../../events/audit.events.js';
import { TrailVerifier } from '../trail-verifier.js';
import type { KnownCheckpoint } from '../mark/audit-mark.js';
import { ExportFindings, type LastCheckpoint } from './export-findings.js';
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
import { redactionProblem } from './export-redaction.js';
import { rangesText, UnboundEvents, type PositionRange } from './unbound-events.js';

export interface ExportReport {
  ok: boolean;
  problem: string | null;
  firstBadPosition: number | null;
  message: string;
  eventsVerified: number;
  checkpointsVerified: number;
  /** Events after the last checkpoint in the export: covered by the export signature only. */
  unsealedEvents: number;
  /**
   * Events shown with credential fields redacted: the chain continues from the link the export
   * gives them, and what they show rests on the export signature.
   */
  redactedEvents: number;
  /**
   * Sealed events before a redacted one in their sealed stretch: the chain continues from the
   * redacted event's given link, so they are tied to their checkpoint by the export signature
   * only. `unboundRanges` lists them by position (at most 1000 ranges).
   */
  unboundEvents: number;
  unboundRanges: PositionRange[];
  /** Whether the key used came from the auditor (true) or from the export itself (false). */
  keyFromAuditor: boolean;
  /** Entries found to say what their events say (the fields an event determines). */
  entriesVerified: number;
  /**
   * The export's last checkpoint: kept outside Slipway as `<sequence>:<digest>`, it is what
   * `--expect` checks a later export against, so one cut back before it fails.
   */
  lastCheckpoint: LastCheckpoint;
}

/** One record, and for CSV the row it came from (where its entry's columns are). */
interface Read {
  record: ExportRecord;
  row?: Record<string, string>;
}

const failure = (problem: string, message: string, at: number | null = null): ExportReport => ({
  ok: false,
  problem,
  firstBadPosition: at,
  message,
  eventsVerified: 0,
  checkpointsVerified: 0,
  unsealedEvents: 0,
  redactedEvents: 0,
  unboundEvents: 0,
  unboundRanges: [],
  keyFromAuditor: false,
  entriesVerified: 0,
  lastCheckpoint: null,
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
 * byte, then recomputes the hash chain and every checkpoint's signature, link and hash; then
 * that the checkpoint an auditor kept (`expect`) is there, and that each entry says what its
 * event says.
 */
async function check(
  records: AsyncIterable<Read>,
  signature: ExportSignature,
  signedDigest: string,
  publicKeyPem: string | undefined,
  expect: KnownCheckpoint | undefined,
): Promise<ExportReport> {
  let verifier: TrailVerifier | null = null;
  let key = publicKeyPem;
  let events = 0;
  let unsealed = 0;
  let redacted = 0;
  const unbound = new UnboundEvents();
  const found = new ExportFindings(expect);
  for await (const { record, row } of records) {
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
      if (record.anchor) {
        verifier.startAfter(record.anchor, record.anchor.position);
        found.checkpoint(record.anchor, record.anchor.position);
      }
      continue;
    }
    if (record.kind !== 'event') return failure('malformed', 'Unexpected record in the export');
    if (record.redaction !== undefined) {
      const problem = redactionProblem(record.event, record.redaction);
      if (problem) return failure('bad-redaction', problem, Number(record.event.position));
      redacted += 1;
    }
    const event = recordedEventOf(record.event);
    unbound.event(verifier.nextPlace, Number(event.position), record.redaction !== undefined);
    verifier.accept(event, record.redaction?.link);
    events += 1;
    const sealed = event.type === AuditCheckpointSealed.type;
    if (sealed) found.checkpoint(AuditCheckpointSealed.dataOf(event), Number(event.position));
    if (sealed) unbound.sealed(AuditCheckpointSealed.dataOf(event).toPosition);
    unsealed = sealed ? 0 : unsealed + 1;
    found.entry(event, record.entry, row);
  }
  if (!verifier) return failure('malformed', 'The export is empty');
  if (events !== signature.events) {
    return failure(
      'malformed',
      `The export holds ${events} events, its signature ${signature.events}`,
    );
  }
  const chain = verifier.finish(null);
  // The events themselves first, then what was expected of them, then their entries.
  const report = chain.ok ? (found.problem() ?? chain) : chain;
  const tail =
    (unsealed > 0
      ? `; ${unsealed} events after the last checkpoint are covered by the export signature only`
      : '') +
    (redacted > 0
      ? `; ${redacted} events have credential fields redacted: what they show rests on the export signature`
      : '') +
    (unbound.count > 0
      ? `; ${unbound.count} sealed events before a redacted one are tied to their checkpoint by the export signature only (positions ${rangesText(unbound.ranges)})`
      : '');
  return {
    ok: report === chain && chain.ok,
    problem: report.problem,
    firstBadPosition: report.firstBadPosition,
    message:
      report === chain && chain.ok
        ? `${chain.message}; ${found.entries} entries match their events; export signature valid${tail}`
        : report.message,
    eventsVerified: chain.eventsVerified,
    checkpointsVerified: chain.checkpointsVerified,
    unsealedEvents: unsealed,
    redactedEvents: redacted,
    unboundEvents: unbound.count,
    unboundRanges: unbound.ranges,
    keyFromAuditor: publicKeyPem !== undefined,
    entriesVerified: found.entries,
    lastCheckpoint: found.last,
  };
}

const TAIL_BYTES = 64 * 1024;

/**
 * Verifies an export file in constant memory: the signature line is read from the end, the
 * bytes before it are hashed as a stream, and the records are parsed as a stream.
 */
export async function verifyExportFile(
  path: string,
  publicKeyPem?: string,
  expect?: KnownCheckpoint,
): Promise<ExportReport> {
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
      expect,
    );
  } catch {
    return failure('malformed', 'The export is incomplete or altered: it does not parse');
  }
}

async function* streamRecords(
  format: ExportFormat,
  range: (() => NodeJS.ReadableStream) | null,
): AsyncGenerator<Read> {
  if (!range) return;
  if (format === 'ndjson') {
    for await (const line of createInterface({ input: range(), crlfDelay: Infinity })) {
      if (line.trim() !== '') yield { record: decodeNdjsonLine(line) };
    }
    return;
  }
  for await (const parsed of range().pipe(parse({ columns: true }))) {
    const row = parsed as Record<string, string>;
    yield { record: decodeCsvRow(row), row };
  }
}
