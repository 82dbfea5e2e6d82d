import { InvalidQueryError } from '../invalid-query.error.js';
import type { Doc } from '../read-store.port.js';

const MAX_ID_LENGTH = 512;

/** The document's id, or an error saying what an id must be. */
export function validDocumentId(doc: Doc): string {
  if (typeof doc.id !== 'string' || doc.id.length === 0 || doc.id.length > MAX_ID_LENGTH) {
    throw new InvalidQueryError(`document id must be 1-${MAX_ID_LENGTH} characters`);
  }
  return doc.id;
}

/**
 * The condition of an upsert into `table` under which the new row (`EXCLUDED`) replaces the
 * stored one: always, unless the new document carries a numeric `_position` (a projection's),
 * which must then be higher than the stored one's.
 */
export const NEWER_ONLY = (table: string): string =>
  `jsonb_typeof(EXCLUDED.doc->'_position') IS DISTINCT FROM 'number'
   OR coalesce((${table}.doc->>'_position')::numeric, -1) < (EXCLUDED.doc->>'_position')::numeric`;

/**
 * The document as JSON that `jsonb` takes: it cannot hold U+0000 (a container's log line may
 * carry one), which is stored as U+FFFD instead. Looked for in the text first, so the usual
 * document is written once.
 */
export function storableJson(doc: Doc): string {
  const json = JSON.stringify(doc);
  if (!json.includes('\\u0000')) return json;
  return JSON.stringify(doc, (_key, value: unknown) =>
    typeof value === 'string' ? value.replaceAll('\u0000', '\ufffd') : value,
  );
}
