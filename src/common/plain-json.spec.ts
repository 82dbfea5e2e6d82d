import { describe, expect, it } from '@jest/globals';
import { isPlainJson, shortJsonText } from './plain-json.js';

describe('plain JSON', () => {
  it.each([
    [null, true],
    [{ a: [1, 'x', true, null, { b: {} }] }, true],
    [Object.assign(Object.create(null) as object, { a: 1 }), true],
    [{ a: undefined }, false],
    [[1, undefined], false],
    [{ n: NaN }, false],
    [{ n: -0 }, false],
    [{ at: new Date(0) }, false],
    [{ big: 10n }, false],
    [new Map(), false],
  ])('%p is plain JSON: %p', (value, plain) => {
    expect(isPlainJson(value)).toBe(plain);
  });

  it('gives short plain JSON as text, and nothing for long or non-plain values', () => {
    expect(shortJsonText({ limit: 20, status: 'failed' }, 100)).toBe(
      '{"limit":20,"status":"failed"}',
    );
    expect(shortJsonText({ text: 'x'.repeat(101) }, 100)).toBeNull();
    expect(shortJsonText({ ['k'.repeat(200)]: 1 }, 100)).toBeNull();
    expect(shortJsonText({ items: Array.from({ length: 60 }, () => 1) }, 100)).toBeNull();
    expect(shortJsonText({ at: new Date(0) }, 100)).toBeNull();
  });
});
