import { decodeCursor, getPath } from '../cursor.js';
import { assertFieldPath, InvalidQueryError } from '../invalid-query.error.js';
import type { Doc, FieldOperators, Filter, Scalar, SortSpec } from '../read-store.port.js';

/**
 * Pure translation of the ReadStore query subset into MongoDB queries (tested without a
 * server). A document `{id, ...fields}` is stored as `{_id: id, ...fields}`.
 */
export type MongoQuery = Record<string, unknown>;

const RANGE = new Set(['$gt', '$gte', '$lt', '$lte']);
const MAX_IN = 500;

export function mongoField(path: string): string {
  if (path === 'id') return '_id';
  assertFieldPath(path);
  return path;
}

function assertScalar(path: string, value: unknown): asserts value is Scalar {
  const ok = value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (!ok || (typeof value === 'number' && !Number.isFinite(value))) {
    throw new InvalidQueryError(`field "${path}" compares with a non-scalar value`);
  }
}

function operators(path: string, ops: FieldOperators): MongoQuery {
  const out: MongoQuery = {};
  for (const [op, value] of Object.entries(ops)) {
    if (op === '$eq') {
      assertScalar(path, value);
      out.$eq = value;
    } else if (op === '$in') {
      if (!Array.isArray(value) || value.length > MAX_IN) {
        throw new InvalidQueryError(`$in on "${path}" needs a list of at most ${MAX_IN} values`);
      }
      value.forEach((v) => assertScalar(path, v));
      out.$in = value;
    } else if (RANGE.has(op)) {
      if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) {
        throw new InvalidQueryError(`${op} on "${path}" needs a number or a string`);
      }
      out[op] = value;
    } else {
      throw new InvalidQueryError(`unsupported operator ${op} on "${path}"`);
    }
  }
  return out;
}

/** The filter as a MongoDB query; `$eq: null` and `$in: [null]` match a missing field, as specified. */
export function toMongoFilter(filter: Filter = {}): MongoQuery {
  const clauses: MongoQuery[] = [];
  for (const [path, condition] of Object.entries(filter)) {
    const field = mongoField(path);
    if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
      clauses.push({ [field]: operators(path, condition) });
    } else {
      assertScalar(path, condition);
      clauses.push({ [field]: condition });
    }
  }
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? clauses[0] : { $and: clauses };
}

export interface MongoSortKey {
  path: string;
  field: string;
  direction: 1 | -1;
}

/** Sort keys with `id` last as the tie-breaker, in the direction of the last key. */
export function mongoSortKeys(sort: SortSpec | undefined): MongoSortKey[] {
  const keys: MongoSortKey[] = Object.entries(sort ?? {}).map(([path, direction]) => {
    if (direction !== 1 && direction !== -1) {
      throw new InvalidQueryError(`sort direction for "${path}" must be 1 or -1`);
    }
    return { path, field: mongoField(path), direction };
  });
  if (keys.length > 4) throw new InvalidQueryError('sort on at most 4 fields');
  const last = keys.length > 0 ? keys[keys.length - 1].direction : 1;
  return [...keys.filter((k) => k.path !== 'id'), { path: 'id', field: '_id', direction: last }];
}

export function toMongoSort(keys: MongoSortKey[]): Record<string, 1 | -1> {
  return Object.fromEntries(keys.map((k) => [k.field, k.direction]));
}

const NOTHING: MongoQuery = { _id: { $exists: false } };

/** Strictly after one key's value; MongoDB sorts null (and missing) first ascending. */
function strictlyAfter(key: MongoSortKey, value: Scalar): MongoQuery {
  if (key.direction === 1) {
    return value === null ? { [key.field]: { $ne: null } } : { [key.field]: { $gt: value } };
  }
  return value === null
    ? NOTHING
    : { $or: [{ [key.field]: { $lt: value } }, { [key.field]: null }] };
}

/** Documents strictly after the cursor in this order (keyset pagination). */
export function afterCursorQuery(keys: MongoSortKey[], cursor: string): MongoQuery {
  const values = decodeCursor(cursor, keys.length);
  const branches: MongoQuery[] = keys.map((key, i) => {
    const same = keys.slice(0, i).map((k, j) => ({ [k.field]: values[j] }));
    return same.length
      ? { $and: [...same, strictlyAfter(key, values[i])] }
      : strictlyAfter(key, values[i]);
  });
  return branches.length === 1 ? branches[0] : { $or: branches };
}

/** The cursor values of a returned document, in key order. */
export function cursorValues(keys: MongoSortKey[], doc: Doc): Scalar[] {
  return keys.map((k) => (k.path === 'id' ? doc.id : getPath(doc, k.path)));
}

export function toStored(doc: Doc): MongoQuery {
  const { id, ...rest } = doc;
  return { _id: id, ...rest };
}

export function fromStored<T extends Doc>(stored: MongoQuery): T {
  const { _id, ...rest } = stored;
  return { id: String(_id), ...rest } as T;
}

/**
 * A conditional replace as an update pipeline: the stored document becomes `doc` only when its
 * `_position` is lower (or absent), so re-applying an event already applied changes nothing,
 * and an upsert needs no second round trip. `$literal` keeps field values that start with `$`.
 */
export function conditionalReplace(doc: Doc & { _position: number }): MongoQuery[] {
  return [
    {
      $replaceWith: {
        $cond: [
          { $lt: [{ $ifNull: ['$_position', -1] }, doc._position] },
          { $literal: toStored(doc) },
          '$$ROOT',
        ],
      },
    },
  ];
}

export function hasPosition(doc: Doc): doc is Doc & { _position: number } {
  return typeof doc._position === 'number' && Number.isFinite(doc._position);
}

/** Index name for a declared index, stable across starts. */
export function indexName(fields: string[]): string {
  return `slipway_${fields.map((f) => mongoField(f).replace(/\./g, '_')).join('__')}`;
}
