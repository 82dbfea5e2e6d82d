import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { parseBoundedYaml, type YamlLimits } from './bounded-yaml.js';

const LIMITS: YamlLimits = {
  maxChars: 10_000,
  maxTokens: 2_000,
  maxNodes: 100,
  maxDepth: 5,
  maxAliases: 3,
};

function refusal(text: string) {
  const result = parseBoundedYaml(text, 'doc', LIMITS);
  if (result.ok) throw new Error('expected a refusal');
  return { cause: result.cause, messages: result.issues.map((i) => `${i.path}: ${i.message}`) };
}

describe('parseBoundedYaml', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('parses a document within the limits', () => {
    expect(parseBoundedYaml('a: &x [1, 2]\nb: *x\nc: {d: e}\n', 'doc', LIMITS)).toEqual({
      ok: true,
      value: { a: [1, 2], b: [1, 2], c: { d: 'e' } },
    });
  });

  it.each([
    ['too many characters', `a: "${'x'.repeat(10_000)}"`, /longer than 10000 characters/],
    ['too many tokens', '#c\n'.repeat(1_100), /more than 2000 tokens/],
    [
      'too many block keys',
      Array.from({ length: 60 }, (_, i) => `k${i}: v`).join('\n'),
      /100 nodes/,
    ],
    ['too many flow items', `[${'1,'.repeat(150)}1]`, /100 nodes/],
    ['flow nesting', `${'['.repeat(6)}${']'.repeat(6)}`, /deeper than 5 levels/],
    [
      'block nesting',
      ['a:', ' b:', '  c:', '   d:', '    e:', '     f:', '      g: 1'].join('\n'),
      /deeper than 5/,
    ],
    ['too many aliases', 'a: &x 1\nb: [*x, *x, *x, *x]', /more than 3 aliases/],
  ])('refuses %s before composing', (_, text, message) => {
    const { cause, messages } = refusal(text);
    expect(cause).toBe('limits');
    expect(messages).toEqual([expect.stringMatching(message)]);
    expect(messages[0]).toMatch(/^doc: doc /);
  });

  it('finds duplicate keys in every map, with their line', () => {
    const { cause, messages } = refusal('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n');
    expect(cause).toBe('syntax');
    expect(messages.sort()).toEqual([
      'doc: duplicate key "a" (line 5, column 1)',
      'doc: duplicate key "c" (line 4, column 3)',
    ]);
  });

  it('refuses collection keys and several documents', () => {
    expect(refusal('? [a, b]\n: 1\n').messages).toEqual([
      expect.stringMatching(/map key must be a plain value/),
    ]);
    expect(refusal('a: 1\n---\nb: 2\n').messages).toEqual([
      'doc: doc must be a single YAML document',
    ]);
  });

  it('turns parser warnings into issues and prints nothing', () => {
    const emitted = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { cause, messages } = refusal('a: !forged\n  FAKE LOG LINE\nb: 1\n');
    expect(cause).toBe('syntax');
    expect(messages).toEqual([expect.stringMatching(/^doc: Unresolved tag: !forged \(line 1/)]);
    for (const spy of [emitted, stderr, stdout, warn]) expect(spy).not.toHaveBeenCalled();
  });
});
