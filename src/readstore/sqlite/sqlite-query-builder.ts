import { decodeCursor } from '../cursor.js';
import { assertFieldPath, InvalidQueryError } from '../invalid-query.error.js';
import type { FieldOperators, Filter, Scalar, SortSpec } from '../read-store.port.js';

export type SqlValue = string | number | bigint | null;

export interface SqlFragment {
  sql: string;
  params: SqlValue[];
}

const RANGE_OPERATORS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
const MAX_IN = 500;

/**
 * The expression for a field. The path is validated and inlined (not bound) so that
 * SQLite can match it against the expression indexes declared for the collection.
 */
export function fieldExpr(path: string): string {
  if (path === 'id') return 'id';
  assertFieldPath(path);
  return `json_extract(doc, '$.${path}')`;
}

function bindable(value: Scalar): SqlValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

function assertScalar(path: string, value: unknown): asserts value is Scalar {
  const ok = value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (!ok || (typeof value === 'number' && !Number.isFinite(value))) {
    throw new InvalidQueryError(`field "${path}" compares with a non-scalar value`);
  }
}

function equality(expr: string, value: Scalar): SqlFragment {
  return value === null
    ? { sql: `${expr} IS NULL`, params: [] }
    : { sql: `${expr} = ?`, params: [bindable(value)] };
}

function operatorClauses(path: string, expr: string, ops: FieldOperators): SqlFragment[] {
  const clauses: SqlFragment[] = [];
  for (const [op, value] of Object.entries(ops)) {
    if (op === '$eq') {
      assertScalar(path, value);
      clauses.push(equality(expr, value));
    } else if (op === '$in') {
      if (!Array.isArray(value) || value.length > MAX_IN) {
        throw new InvalidQueryError(`$in on "${path}" needs a list of at most ${MAX_IN} values`);
      }
      value.forEach((v) => assertScalar(path, v));
      const nonNull = value.filter((v) => v !== null).map(bindable);
      const parts: string[] = [];
      if (nonNull.length > 0) parts.push(`${expr} IN (${nonNull.map(() => '?').join(', ')})`);
      if (value.includes(null)) parts.push(`${expr} IS NULL`);
      clauses.push({ sql: parts.length ? `(${parts.join(' OR ')})` : '0', params: nonNull });
    } else if (op in RANGE_OPERATORS) {
      if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) {
        throw new InvalidQueryError(`${op} on "${path}" needs a number or a string`);
      }
      const sqlOp = RANGE_OPERATORS[op as keyof typeof RANGE_OPERATORS];
      clauses.push({ sql: `${expr} ${sqlOp} ?`, params: [value] });
    } else {
      throw new InvalidQueryError(`unsupported operator ${op} on "${path}"`);
    }
  }
  return clauses;
}

export function buildWhere(filter: Filter): SqlFragment {
  const clauses: SqlFragment[] = [];
  for (const [path, condition] of Object.entries(filter)) {
    const expr = fieldExpr(path);
    if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
      clauses.push(...operatorClauses(path, expr, condition));
    } else {
      assertScalar(path, condition);
      clauses.push(equality(expr, condition));
    }
  }
  return joinAnd(clauses);
}

export interface SortKey {
  path: string;
  expr: string;
  direction: 1 | -1;
}

/** The sort keys with `id` appended as the final tie-breaker, so every order is total. */
export function sortKeys(sort: SortSpec | undefined): SortKey[] {
  const keys: SortKey[] = Object.entries(sort ?? {}).map(([path, direction]) => {
    if (direction !== 1 && direction !== -1) {
      throw new InvalidQueryError(`sort direction for "${path}" must be 1 or -1`);
    }
    return { path, expr: fieldExpr(path), direction };
  });
  if (keys.length > 4) throw new InvalidQueryError('sort on at most 4 fields');
  const last = keys.length > 0 ? keys[keys.length - 1].direction : 1;
  return [...keys.filter((k) => k.path !== 'id'), { path: 'id', expr: 'id', direction: last }];
}

export function orderBy(keys: SortKey[]): string {
  return keys.map((k) => `${k.expr} ${k.direction === 1 ? 'ASC' : 'DESC'}`).join(', ');
}

/**
 * Rows strictly after the cursor in this order. SQLite sorts NULL first ascending and
 * last descending, as MongoDB does; the comparisons below follow that.
 */
export function afterCursor(keys: SortKey[], cursor: string): SqlFragment {
  const values = decodeCursor(cursor, keys.length);
  const build = (i: number): SqlFragment => {
    const key = keys[i];
    const value = bindable(values[i]);
    const after = strictlyAfter(key, value);
    if (i === keys.length - 1) return after;
    const same = equality(key.expr, values[i]);
    const rest = build(i + 1);
    return {
      sql: `(${after.sql} OR (${same.sql} AND ${rest.sql}))`,
      params: [...after.params, ...same.params, ...rest.params],
    };
  };
  return build(0);
}

function strictlyAfter(key: SortKey, value: SqlValue): SqlFragment {
  if (key.direction === 1) {
    return value === null
      ? { sql: `${key.expr} IS NOT NULL`, params: [] }
      : { sql: `${key.expr} > ?`, params: [value] };
  }
  return value === null
    ? { sql: '0', params: [] }
    : { sql: `(${key.expr} < ? OR ${key.expr} IS NULL)`, params: [value] };
}

export function joinAnd(clauses: SqlFragment[]): SqlFragment {
  if (clauses.length === 0) return { sql: '1', params: [] };
  return {
    sql: clauses.map((c) => `(${c.sql})`).join(' AND '),
    params: clauses.flatMap((c) => c.params),
  };
}
