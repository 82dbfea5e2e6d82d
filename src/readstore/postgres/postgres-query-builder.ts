import { decodeCursor } from '../cursor.js';
import { assertFieldPath, InvalidQueryError } from '../invalid-query.error.js';
import type { FieldOperators, Filter, Scalar, SortSpec } from '../read-store.port.js';

/**
 * A fragment of SQL with its parameters. Placeholders are written `?` and numbered `$1, $2...`
 * once the whole statement is assembled (see numbered), so fragments compose in any order.
 */
export interface PgFragment {
  sql: string;
  params: unknown[];
}

const RANGE_OPERATORS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
const MAX_IN = 500;
const JSON_NULL = `'null'::jsonb`;

/**
 * A field's value as `jsonb`, JSON `null` where the document lacks it: then a missing field
 * matches `null`, and `null` sorts before every value (jsonb orders null lowest), as on SQLite
 * and MongoDB. The path is validated and inlined so that PostgreSQL matches the expression
 * against the indexes declared for it.
 */
export function fieldExpr(path: string): string {
  if (path === 'id') return 'id';
  assertFieldPath(path);
  return `coalesce(doc #> '{${path.split('.').join(',')}}', ${JSON_NULL})`;
}

/** A value compared with a field: `id` is a text column, every other field `jsonb`. */
function operand(path: string, value: Scalar): PgFragment {
  if (path === 'id') {
    if (typeof value !== 'string') throw new InvalidQueryError('id compares with a string');
    return { sql: '?', params: [value] };
  }
  return { sql: '?::jsonb', params: [JSON.stringify(value)] };
}

function assertScalar(path: string, value: unknown): asserts value is Scalar {
  const ok = value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (!ok || (typeof value === 'number' && !Number.isFinite(value))) {
    throw new InvalidQueryError(`field "${path}" compares with a non-scalar value`);
  }
}

function compare(path: string, op: string, value: Scalar): PgFragment {
  const right = operand(path, value);
  return { sql: `${fieldExpr(path)} ${op} ${right.sql}`, params: right.params };
}

function operatorClauses(path: string, ops: FieldOperators): PgFragment[] {
  const clauses: PgFragment[] = [];
  for (const [op, value] of Object.entries(ops)) {
    if (op === '$eq') {
      assertScalar(path, value);
      clauses.push(compare(path, '=', value));
    } else if (op === '$in') {
      if (!Array.isArray(value) || value.length > MAX_IN) {
        throw new InvalidQueryError(`$in on "${path}" needs a list of at most ${MAX_IN} values`);
      }
      value.forEach((v) => assertScalar(path, v));
      if (path === 'id' && value.some((v) => typeof v !== 'string')) {
        throw new InvalidQueryError('id compares with a string');
      }
      clauses.push(
        path === 'id'
          ? { sql: 'id = ANY(?::text[])', params: [value] }
          : {
              sql: `${fieldExpr(path)} = ANY(?::jsonb[])`,
              params: [value.map((v) => JSON.stringify(v))],
            },
      );
    } else if (op in RANGE_OPERATORS) {
      if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) {
        throw new InvalidQueryError(`${op} on "${path}" needs a number or a string`);
      }
      const range = compare(path, RANGE_OPERATORS[op as keyof typeof RANGE_OPERATORS], value);
      // A missing field is no value in a range (on SQLite it is NULL, which compares false).
      clauses.push(
        path === 'id'
          ? range
          : { sql: `${range.sql} AND ${fieldExpr(path)} <> ${JSON_NULL}`, params: range.params },
      );
    } else {
      throw new InvalidQueryError(`unsupported operator ${op} on "${path}"`);
    }
  }
  return clauses;
}

export function buildWhere(filter: Filter): PgFragment {
  const clauses: PgFragment[] = [];
  for (const [path, condition] of Object.entries(filter)) {
    if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
      clauses.push(...operatorClauses(path, condition));
    } else {
      assertScalar(path, condition);
      clauses.push(compare(path, '=', condition));
    }
  }
  return joinAnd(clauses);
}

export interface SortKey {
  path: string;
  direction: 1 | -1;
}

/** The sort keys with `id` appended as the final tie-breaker, so every order is total. */
export function sortKeys(sort: SortSpec | undefined): SortKey[] {
  const keys: SortKey[] = Object.entries(sort ?? {}).map(([path, direction]) => {
    if (direction !== 1 && direction !== -1) {
      throw new InvalidQueryError(`sort direction for "${path}" must be 1 or -1`);
    }
    fieldExpr(path);
    return { path, direction };
  });
  if (keys.length > 4) throw new InvalidQueryError('sort on at most 4 fields');
  const last = keys.length > 0 ? keys[keys.length - 1].direction : 1;
  return [...keys.filter((k) => k.path !== 'id'), { path: 'id', direction: last }];
}

export function orderBy(keys: SortKey[]): string {
  return keys.map((k) => `${fieldExpr(k.path)} ${k.direction === 1 ? 'ASC' : 'DESC'}`).join(', ');
}

/**
 * Rows strictly after the cursor in this order. With JSON `null` the lowest value, `>` and `<`
 * already put missing fields where the order has them (first ascending, last descending).
 */
export function afterCursor(keys: SortKey[], cursor: string): PgFragment {
  const values = decodeCursor(cursor, keys.length);
  const build = (i: number): PgFragment => {
    const { path, direction } = keys[i];
    const after = compare(path, direction === 1 ? '>' : '<', values[i]);
    if (i === keys.length - 1) return after;
    const same = compare(path, '=', values[i]);
    const rest = build(i + 1);
    return {
      sql: `(${after.sql} OR (${same.sql} AND ${rest.sql}))`,
      params: [...after.params, ...same.params, ...rest.params],
    };
  };
  return build(0);
}

export function joinAnd(clauses: PgFragment[]): PgFragment {
  if (clauses.length === 0) return { sql: 'true', params: [] };
  return {
    sql: clauses.map((c) => `(${c.sql})`).join(' AND '),
    params: clauses.flatMap((c) => c.params),
  };
}

/** `?` placeholders numbered `$1...` from `first`, for a statement built from fragments. */
export function numbered(sql: string, first = 1): string {
  let n = first;
  return sql.replace(/\?/g, () => `$${n++}`);
}
