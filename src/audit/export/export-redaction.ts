import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json.js';
import type { RecordedEvent } from '../../eventstore/event-store.port.js';
import { isSealedSecret } from '../../secrets/secret-box.js';
import { rawEventOf, type RawEvent, type Redaction } from './export-format.js';

/**
 * Fields no export shows in clear. An argon2id password hash can be cracked offline, and an
 * export goes to admins and auditors: handing it out would give anyone with `audit:read` what
 * the rank rule keeps from them (and, like a token's value, a credential belongs to its user
 * alone). A hash sealed with the service key (as `PasswordHasher` records it) is shown as stored:
 * opaque, and its event verifies like any other. One recorded in clear is redacted. Matched by
 * name in any event's data, so a new event carrying one is covered too.
 */
export const CREDENTIAL_FIELDS: readonly string[] = ['passwordHash'];

const PLACEHOLDER = /^\[redacted sha256:[0-9a-f]{64}\]$/;
const LINK = /^[0-9a-f]{64}$/;

/**
 * What a redacted field shows: the SHA-256 of the stored value, so whoever holds the stored
 * event can match it. It opens nothing: the hash it digests holds its own random salt.
 */
export function placeholderOf(value: unknown): string {
  const text = typeof value === 'string' ? value : canonicalJson(value);
  return `[redacted sha256:${createHash('sha256').update(text).digest('hex')}]`;
}

/** The event as exported: as stored, or with its credential fields replaced by placeholders. */
export function exportedEvent(
  event: RecordedEvent,
  link: string,
): { event: RawEvent; redaction?: Redaction } {
  const raw = rawEventOf(event);
  const fields = CREDENTIAL_FIELDS.filter(
    (field) => event.data[field] !== undefined && !isSealedSecret(event.data[field]),
  );
  if (fields.length === 0) return { event: raw };
  const data = { ...event.data };
  for (const field of fields) data[field] = placeholderOf(event.data[field]);
  return { event: { ...raw, data }, redaction: { fields, link } };
}

/**
 * Why a redaction cannot stand, or null. Only this verifier's own credential fields may be
 * redacted (an export cannot widen the list to hide other fields), each shown as a placeholder.
 */
export function redactionProblem(event: RawEvent, redaction: unknown): string | null {
  const { fields, link } = (redaction ?? {}) as Partial<Redaction>;
  const at = `event ${event.position}`;
  if (typeof link !== 'string' || !LINK.test(link)) return `${at}: its redaction has no link`;
  if (!Array.isArray(fields) || fields.length === 0 || new Set(fields).size !== fields.length)
    return `${at}: its redaction names no fields`;
  for (const field of fields) {
    if (typeof field !== 'string' || !CREDENTIAL_FIELDS.includes(field))
      return `${at}: ${String(field)} is not a credential field and cannot be redacted`;
    const shown = event.data[field];
    if (typeof shown !== 'string' || !PLACEHOLDER.test(shown))
      return `${at}: ${field} is said to be redacted but is not`;
  }
  return null;
}
