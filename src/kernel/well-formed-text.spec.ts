import { describe, expect, it } from '@jest/globals';
import { inputFieldNames } from './audit-attribution.js';
import { assertWellFormedText, illFormedTextPaths, toWellFormed } from './well-formed-text.js';

describe('well-formed input text', () => {
  it('finds lone surrogates in strings and keys at any depth, by dotted path in input order', () => {
    const input = {
      name: 'ok 🚀',
      email: 'a\ud800@example.com',
      env: [{ name: 'A', value: 'x\udc00' }, { name: 'B' }],
      nested: { ['k\udbff']: 'fine', deep: { list: ['\udfff\ud800'] } },
    };
    expect(illFormedTextPaths(input)).toEqual([
      'email',
      'env.0.value',
      'nested.k\\udbff',
      'nested.deep.list.0',
    ]);
  });

  it('accepts surrogate pairs, other values and empty input', () => {
    for (const value of [
      undefined,
      null,
      7,
      true,
      '',
      '😀 \u{10ffff}',
      ['é'],
      { a: { b: '👍' } },
    ]) {
      expect(illFormedTextPaths(value)).toEqual([]);
    }
  });

  it('refuses with BAD_REQUEST naming each field, at most twenty', () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, '\ud800']));
    try {
      assertWellFormedText(many);
      throw new Error('not refused');
    } catch (error) {
      expect(error).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
      const issues = (error as { data: { issues: { path: string }[] } }).data.issues;
      expect(issues).toHaveLength(20);
      expect(issues[0]).toEqual({ path: 'f0', message: expect.stringMatching(/well-formed/) });
    }
    expect(() => assertWellFormedText('\ud800')).toThrow(/well-formed Unicode/);
  });

  it('keeps audit field names well-formed, even cut inside a surrogate pair', () => {
    expect(toWellFormed('a\ud800b🚀')).toBe('a\ufffdb🚀');
    const cut = `${'x'.repeat(63)}🚀`;
    expect(inputFieldNames({ [cut]: 1, ['\udc00']: 2 })).toEqual([
      `${'x'.repeat(63)}\ufffd`,
      '\ufffd',
    ]);
  });
});
