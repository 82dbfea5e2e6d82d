import { describe, expect, it } from '@jest/globals';
import { encodeCursor } from '../cursor.js';
import { InvalidQueryError } from '../invalid-query.error.js';
import {
  afterCursorQuery,
  conditionalReplace,
  cursorValues,
  fromStored,
  indexName,
  mongoSortKeys,
  toMongoFilter,
  toMongoSort,
  toStored,
} from './mongo-query.js';

describe('ReadStore filters as MongoDB queries', () => {
  it('translates equality, null, booleans, dotted paths and id', () => {
    expect(toMongoFilter({})).toEqual({});
    expect(toMongoFilter({ team: 'red' })).toEqual({ team: 'red' });
    expect(toMongoFilter({ id: 'a', 'meta.region': 'eu', active: true, note: null })).toEqual({
      $and: [{ _id: 'a' }, { 'meta.region': 'eu' }, { active: true }, { note: null }],
    });
  });

  it('translates $eq, $in and ranges', () => {
    expect(toMongoFilter({ size: { $gte: 2, $lt: 5 }, team: { $in: ['red', null] } })).toEqual({
      $and: [{ size: { $gte: 2, $lt: 5 } }, { team: { $in: ['red', null] } }],
    });
    expect(toMongoFilter({ team: { $eq: null } })).toEqual({ team: { $eq: null } });
  });

  it('refuses operators outside the subset, non-scalars and bad paths', () => {
    const bad = [
      { team: { $ne: 'red' } },
      { team: { $where: 'sleep(1000)' } },
      { team: { $in: 'red' } },
      { team: { $in: Array.from({ length: 501 }, () => 'x') } },
      { size: { $gt: true } },
      { size: { $gt: Number.NaN } },
      { team: ['red'] },
      { $where: 'x' },
      { 'a..b': 1 },
      { 'meta.$x': 1 },
    ];
    for (const filter of bad) {
      expect(() => toMongoFilter(filter as never)).toThrow(InvalidQueryError);
    }
  });

  it('sorts with id last as the tie-breaker in the last key direction', () => {
    const keys = mongoSortKeys({ team: 1, size: -1 });
    expect(toMongoSort(keys)).toEqual({ team: 1, size: -1, _id: -1 });
    expect(toMongoSort(mongoSortKeys(undefined))).toEqual({ _id: 1 });
    expect(() => mongoSortKeys({ a: 2 as 1 })).toThrow(InvalidQueryError);
    expect(() => mongoSortKeys({ a: 1, b: 1, c: 1, d: 1, e: 1 })).toThrow(/at most 4/);
  });

  it('builds keyset conditions strictly after the cursor, nulls first ascending', () => {
    const keys = mongoSortKeys({ team: 1 });
    expect(afterCursorQuery(keys, encodeCursor(['red', 'item-3']))).toEqual({
      $or: [{ team: { $gt: 'red' } }, { $and: [{ team: 'red' }, { _id: { $gt: 'item-3' } }] }],
    });
    expect(afterCursorQuery(keys, encodeCursor([null, 'item-3']))).toEqual({
      $or: [{ team: { $ne: null } }, { $and: [{ team: null }, { _id: { $gt: 'item-3' } }] }],
    });
    const down = mongoSortKeys({ size: -1 });
    expect(afterCursorQuery(down, encodeCursor([4, 'item-9']))).toEqual({
      $or: [
        { $or: [{ size: { $lt: 4 } }, { size: null }] },
        { $and: [{ size: 4 }, { $or: [{ _id: { $lt: 'item-9' } }, { _id: null }] }] },
      ],
    });
    expect(() => afterCursorQuery(keys, 'garbage')).toThrow(InvalidQueryError);
    expect(() => afterCursorQuery(keys, encodeCursor(['red']))).toThrow(InvalidQueryError);
  });

  it('reads cursor values from a document, dotted paths included', () => {
    const keys = mongoSortKeys({ 'meta.region': 1 });
    expect(cursorValues(keys, { id: 'a', meta: { region: 'eu' } })).toEqual(['eu', 'a']);
  });

  it('stores id as _id and reads it back', () => {
    expect(toStored({ id: 'a', n: 1 })).toEqual({ _id: 'a', n: 1 });
    expect(fromStored({ _id: 'a', n: 1 })).toEqual({ id: 'a', n: 1 });
  });

  it('replaces a document only when its _position is lower, keeping $ values literal', () => {
    const pipeline = conditionalReplace({ id: 'a', v: '$danger', _position: 7 });
    expect(pipeline).toEqual([
      {
        $replaceWith: {
          $cond: [
            { $lt: [{ $ifNull: ['$_position', -1] }, 7] },
            { $literal: { _id: 'a', v: '$danger', _position: 7 } },
            '$$ROOT',
          ],
        },
      },
    ]);
  });

  it('names indexes after their fields', () => {
    expect(indexName(['name', 'environment'])).toBe('slipway_name__environment');
    expect(indexName(['meta.region', 'id'])).toBe('slipway_meta_region___id');
  });
});
