import type { RecordedEvent } from '../../eventstore/event-store.port.js';
import {
  entryMismatch,
  entryMissing,
  expectedView,
  sameValue,
  type EntryBreak,
} from '../trail/entry-check.js';
import { CSV_COLUMNS, csvRow } from './export-codecs.js';
import { rawEventOf } from './export-format.js';

/**
 * The entry columns of a CSV row that its event determines; `position`, `time`, `action` and
 * `stream` are the event's own columns, the ones the chain hashes.
 */
const ENTRY_COLUMNS = [
  'resource',
  'outcome',
  'code',
  'count',
  'actor_id',
  'actor_kind',
  'auth_method',
  'token_id',
  'request_id',
];

/** A CSV export's entry against its event: the first column that differs, or null. */
export function csvEntryBreak(
  event: RecordedEvent,
  row: Record<string, string>,
): EntryBreak | null {
  const position = Number(event.position);
  // Every entry has an outcome: a row without one had no entry beside its event.
  if (!row.outcome) return entryMissing(position, 'the export');
  const values = csvRow({ kind: 'event', event: rawEventOf(event), entry: expectedView(event) });
  const expected = Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, values[i]]));
  const columns = expected.actor_label ? [...ENTRY_COLUMNS, 'actor_label'] : ENTRY_COLUMNS;
  const column = columns.find((c) => !sameValue(expected[c], row[c] ?? ''));
  return column ? entryMismatch(position, 'the export', column) : null;
}
