import { auditEntryOf, type AuditEntryDoc } from '../../../projections/audit-trail.projection.js';
import { canonicalJson } from '../../common/canonical-json.js';
import type { RecordedEvent } from '../../eventstore/event-store.port.js';
import { auditEntryView, fixedLabel, type AuditEntryView } from './audit-entry-view.js';

export type EntryProblem = 'entry-missing' | 'entry-mismatch';

/** An entry of the trail that does not say what its event says. */
export interface EntryBreak {
  problem: EntryProblem;
  firstBadPosition: number;
  message: string;
}

/** As a read store keeps it: PostgreSQL's `jsonb` holds U+FFFD where a text had U+0000. */
function stored(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\ufffd');
  if (Array.isArray(value)) return value.map(stored);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stored(v)]));
  }
  return value;
}

export const sameValue = (a: unknown, b: unknown): boolean =>
  canonicalJson(stored(a)) === canonicalJson(stored(b));

export const entryMissing = (position: number, where: string): EntryBreak => ({
  problem: 'entry-missing',
  firstBadPosition: position,
  message: `${where} has no entry for event ${position}`,
});

export const entryMismatch = (position: number, where: string, field: string): EntryBreak => ({
  problem: 'entry-mismatch',
  firstBadPosition: position,
  message: `the entry of ${where} for event ${position} does not match the event (${field})`,
});

/**
 * The entry the `audit_trail` projection makes of `event`, as `auditTrail` and the export show
 * it, with what the event alone determines: the label only when it is fixed (`system`,
 * `anonymous`); token names and client addresses come from elsewhere and are left empty.
 */
export function expectedView(event: RecordedEvent): AuditEntryView {
  const doc = auditEntryOf(event);
  return auditEntryView(doc, {
    label: fixedLabel(doc.actorId, doc.actorKind) ?? '',
    tokenName: null,
    clientAddress: null,
  });
}

/** The read model's entry against the projection of its event (the same pure function). */
export function storedEntryBreak(
  event: RecordedEvent,
  entry: AuditEntryDoc | undefined,
): EntryBreak | null {
  const position = Number(event.position);
  if (!entry) return entryMissing(position, 'the audit trail');
  const expected = auditEntryOf(event);
  const field = Object.keys(expected).find(
    (key) => !sameValue(expected[key as keyof AuditEntryDoc], entry[key as keyof AuditEntryDoc]),
  );
  return field ? entryMismatch(position, 'the audit trail', field) : null;
}

/** The fields of a shown entry that its event determines. */
const VIEW_FIELDS = [
  'position',
  'eventId',
  'time',
  'action',
  'stream',
  'resource',
  'outcome',
  'code',
  'count',
  'inputFields',
  'actor.id',
  'actor.kind',
  'actor.role',
  'authMethod',
  'channel',
  'token.id',
  'requestId',
];

/** A field of a value read from a file, which may have any shape. */
function at(value: unknown, path: string): unknown {
  let here = value;
  for (const key of path.split('.')) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** An export's entry (NDJSON) against its event: the first field that differs, or null. */
export function viewBreak(event: RecordedEvent, entry: unknown): EntryBreak | null {
  const position = Number(event.position);
  if (entry === null || typeof entry !== 'object') return entryMissing(position, 'the export');
  const expected = expectedView(event);
  const fields = expected.actor.label ? [...VIEW_FIELDS, 'actor.label'] : VIEW_FIELDS;
  const field = fields.find((f) => !sameValue(at(expected, f), at(entry, f)));
  return field ? entryMismatch(position, 'the export', field) : null;
}
