import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ExportEvent, ExportRecord, RawEvent } from './export-format.js';

export type ExportFormat = 'ndjson' | 'csv';

/**
 * CSV columns. `data` and `metadata` hold the event's JSON as exported, so a CSV export
 * verifies offline like an NDJSON one; `info` holds the header and signature records, and an
 * event's redaction.
 */
export const CSV_COLUMNS = [
  'kind',
  'position',
  'time',
  'action',
  'stream',
  'resource',
  'outcome',
  'code',
  'count',
  'actor_id',
  'actor_kind',
  'actor_label',
  'auth_method',
  'token_id',
  'token_name',
  'client_address',
  'request_id',
  'event_id',
  'revision',
  'schema_version',
  'data',
  'metadata',
  'info',
] as const;

export function encodeRecord(format: ExportFormat, record: ExportRecord): string {
  if (format === 'ndjson') return `${JSON.stringify(record)}\n`;
  return stringify([csvRow(record)]);
}

export function csvHeaderLine(): string {
  return stringify([[...CSV_COLUMNS]]);
}

/** One record's CSV values, in the order of CSV_COLUMNS. */
export function csvRow(record: ExportRecord): string[] {
  const row: Record<(typeof CSV_COLUMNS)[number], string> = Object.fromEntries(
    CSV_COLUMNS.map((c) => [c, '']),
  ) as Record<(typeof CSV_COLUMNS)[number], string>;
  row.kind = record.kind;
  if (record.kind !== 'event') {
    row.info = JSON.stringify({ ...record, kind: undefined });
  } else {
    const { event: e, entry, redaction } = record;
    if (redaction) row.info = JSON.stringify({ redaction });
    Object.assign(row, {
      position: e.position,
      time: e.recordedAt,
      action: e.type,
      stream: e.stream,
      event_id: e.id,
      revision: e.revision,
      schema_version: String(e.schemaVersion),
      data: JSON.stringify(e.data),
      metadata: JSON.stringify(e.metadata),
    });
    if (entry) {
      Object.assign(row, {
        resource: entry.resource,
        outcome: entry.outcome,
        code: entry.code ?? '',
        count: String(entry.count),
        actor_id: entry.actor.id ?? '',
        actor_kind: entry.actor.kind,
        actor_label: entry.actor.label,
        auth_method: entry.authMethod,
        token_id: entry.token?.id ?? '',
        token_name: entry.token?.name ?? '',
        client_address: entry.clientAddress ?? '',
        request_id: entry.requestId ?? '',
      });
    }
  }
  return CSV_COLUMNS.map((c) => row[c]);
}

/** One NDJSON line as a record. Throws when it does not parse. */
export function decodeNdjsonLine(line: string): ExportRecord {
  return JSON.parse(line) as ExportRecord;
}

/** One CSV row (by column name) as a record. Throws when it does not parse. */
export function decodeCsvRow(row: Record<string, string>): ExportRecord {
  if (row.kind !== 'event') {
    return { ...(JSON.parse(row.info) as object), kind: row.kind } as ExportRecord;
  }
  const event: RawEvent = {
    position: row.position,
    id: row.event_id,
    type: row.action,
    stream: row.stream,
    revision: row.revision,
    schemaVersion: Number(row.schema_version),
    recordedAt: row.time,
    data: JSON.parse(row.data) as RawEvent['data'],
    metadata: JSON.parse(row.metadata) as RawEvent['metadata'],
  };
  const { redaction } = row.info ? (JSON.parse(row.info) as Pick<ExportEvent, 'redaction'>) : {};
  return { kind: 'event', event, entry: null, ...(redaction === undefined ? {} : { redaction }) };
}

/** The records of an export held in memory, in order. Throws on a record that does not parse. */
export function decodeExport(format: ExportFormat, text: string): ExportRecord[] {
  if (format === 'ndjson') {
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(decodeNdjsonLine);
  }
  return (parse(text, { columns: true }) as Record<string, string>[]).map(decodeCsvRow);
}

/**
 * The bytes the signature covers (everything before the last line) and the last line. The
 * signature record never contains a raw newline in either format.
 */
export function splitSigned(bytes: Buffer): { signed: Buffer; last: string } {
  const end =
    bytes.length > 0 && bytes[bytes.length - 1] === 0x0a ? bytes.length - 1 : bytes.length;
  const start = bytes.lastIndexOf(0x0a, end - 1) + 1;
  return { signed: bytes.subarray(0, start), last: bytes.subarray(start, end).toString('utf8') };
}
