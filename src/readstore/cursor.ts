import { InvalidQueryError } from './invalid-query.error.js';
import type { Scalar } from './read-store.port.js';

/**
 * A page cursor holds the sort-key values and id of the last document returned, so the
 * next page starts strictly after it (keyset pagination: stable under concurrent writes).
 */
export function encodeCursor(values: Scalar[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, expectedLength: number): Scalar[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidQueryError('cursor is not valid');
  }
  const valid =
    Array.isArray(values) &&
    values.length === expectedLength &&
    values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)) &&
    typeof values[values.length - 1] === 'string';
  if (!valid) throw new InvalidQueryError('cursor does not match this query');
  return values as Scalar[];
}

export function getPath(doc: Record<string, unknown>, path: string): Scalar {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[part];
  }
  if (value === undefined) return null;
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
    return value as Scalar;
  }
  return JSON.stringify(value);
}
