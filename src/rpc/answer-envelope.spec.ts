import { describe, expect, it } from '@jest/globals';
import SuperJSON from 'superjson';
import { deepFreeze } from '../common/deep-freeze.js';
import { answerBody, answerEnvelope } from './answer-envelope.js';

describe('the answer envelope', () => {
  it('is what superjson makes of any answer, plain or not', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const answers: unknown[] = [
      null,
      { items: [{ id: 'a', n: 1, ok: true, tags: ['x'], nested: { deep: [null] } }], next: null },
      [],
      'text',
      0,
      { at: new Date(0) },
      { gone: undefined },
      [1, undefined],
      { n: NaN },
      { n: -0 },
      { big: 10n },
      { map: new Map([['k', 1]]), set: new Set([1]) },
      { point: new Point(1, 2) },
      Object.assign(Object.create(null) as object, { bare: 1 }),
    ];
    for (const answer of answers)
      expect(JSON.stringify(answerEnvelope(answer))).toBe(
        JSON.stringify(SuperJSON.serialize(answer)),
      );
  });

  it('answers null for no answer', () => {
    expect(answerEnvelope(undefined)).toEqual({ json: null });
  });
});

describe('the answer body', () => {
  it('is the envelope under result.data, for any answer', () => {
    for (const answer of [null, { at: new Date(0) }, { items: [{ id: 'a' }] }])
      expect(JSON.parse(answerBody(answer))).toEqual({
        result: { data: JSON.parse(JSON.stringify(answerEnvelope(answer))) },
      });
  });

  it('is written once for a frozen answer, and afresh for one that may change', () => {
    const shared = deepFreeze({ items: [{ id: 'a' }] });
    const first = answerBody(shared);
    expect(answerBody(shared)).toBe(first);
    const open = { items: [{ id: 'a' }] };
    expect(answerBody(open)).toBe(first);
    open.items.push({ id: 'b' });
    expect(JSON.parse(answerBody(open)).result.data.json.items).toHaveLength(2);
  });
});
