import { describe, expect, it } from '@jest/globals';
import { readComposeDocument } from './read-compose.js';

const vars = (entries: Record<string, string>) => new Map(Object.entries(entries));

function read(text: string, variables: Record<string, string> = {}) {
  const result = readComposeDocument(text, vars(variables));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result;
}

function services(text: string, variables: Record<string, string> = {}) {
  return read(text, variables).document.services as Record<string, Record<string, unknown>>;
}

describe('reading a compose file as Compose does', () => {
  it('interpolates values with defaults, alternatives and escapes, never keys', () => {
    const web = services(
      `services:
  web:
    image: "nginx:\${TAG:-1.27}"
    ports: ["\${PORT:-8080}:80", "\${ADMIN-9000}:9000"]
    environment:
      \${KEY}: "$$HOME and $HOST and \${EMPTY:+set} \${EMPTY+set}"
      NESTED: "\${NOPE:-\${HOST}}"
`,
      { HOST: 'db', EMPTY: '', ADMIN: '' },
    ).web;
    expect(web.image).toBe('nginx:1.27');
    expect(web.ports).toEqual(['8080:80', ':9000']);
    expect(web.environment).toEqual({ '${KEY}': '$HOME and db and  set', NESTED: 'db' });
  });

  it('reports variables read but not set, and refuses a required one', () => {
    expect(read('services: {web: {image: "a:${TAG}", command: "$X ${Y:-y}"}}').unset).toEqual([
      'TAG',
      'X',
    ]);
    const refused = readComposeDocument(
      'services: {web: {image: "a:${TAG:?set the tag}"}}',
      new Map(),
    );
    expect(refused).toEqual({
      ok: false,
      cause: 'invalid',
      issues: [
        { path: 'compose.services.web.image', message: 'requires the variable TAG: "set the tag"' },
      ],
    });
  });

  it.each([
    ['a:${X', 'does not close'],
    ['a:${1X}', 'names no variable'],
    ['a:${X!y}', 'invalid interpolation'],
    [`a:${'${A:-'.repeat(9)}${'}'.repeat(9)}`, 'deeper than 8'],
  ])('refuses the malformed interpolation %s', (image, message) => {
    const result = readComposeDocument(
      `services: {web: {image: ${JSON.stringify(image)}}}`,
      new Map(),
    );
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain(message);
  });

  it('resolves merge keys, lists of them and reused anchors', () => {
    const s = services(`x-base: &base {image: "a:1", restart: always}
x-logs: &logs {logging: {driver: json-file}}
services:
  one: {<<: [*base, *logs], command: one}
  two: &two {<<: *base}
  three: *two
`);
    expect(s.one).toEqual({
      image: 'a:1',
      restart: 'always',
      logging: { driver: 'json-file' },
      command: 'one',
    });
    expect(s.three).toEqual({ image: 'a:1', restart: 'always' });
  });

  it('assembles extends by the merge rules, obeying !reset and !override', () => {
    const s = services(`services:
  base:
    image: nginx:1.27
    environment: {A: "1", B: "2"}
    labels: [a=1]
    ports: ["80"]
    volumes: ["./a:/a", "./b:/b"]
    command: [x, y]
    healthcheck: {test: [CMD, a], interval: 5s}
  web:
    extends: {service: base}
    environment: [A=9, C=3]
    ports: ["81"]
    volumes: ["./c:/b"]
    command: [z]
    healthcheck: {test: [CMD, b]}
  slim:
    extends: web
    environment: {A: !reset null}
    ports: !override ["82"]
    labels: !reset []
  solo:
    image: a:1
    ports: !reset ["90"]
    environment: !override {X: 1}
`);
    expect(s.web).toEqual({
      image: 'nginx:1.27',
      environment: { A: '9', B: '2', C: '3' },
      labels: ['a=1'],
      ports: ['80', '81'],
      volumes: ['./a:/a', './c:/b'],
      command: ['z'],
      healthcheck: { test: ['CMD', 'b'], interval: '5s' },
    });
    expect(s.slim.environment).toEqual({ B: '2', C: '3' });
    expect(s.slim.ports).toEqual(['82']);
    expect(s.slim).not.toHaveProperty('labels');
    expect(s.slim).not.toHaveProperty('extends');
    expect(s.solo).toEqual({ image: 'a:1', environment: { X: 1 } });
  });

  it.each([
    ['a: {extends: b}\n  b: {extends: a}', 'loops: a → b → a'],
    ['a: {extends: nope}', 'not a service here'],
    ['a: {extends: {file: x}}', 'must name a service'],
  ])('refuses the extends %s', (body, message) => {
    const result = readComposeDocument(`services:\n  ${body}\n`, new Map());
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain(message);
  });

  it('leaves an extends of another file as written, for the policy to judge', () => {
    expect(services('services:\n  a: {extends: {service: b, file: other.yml}}\n').a).toEqual({
      extends: { service: 'b', file: 'other.yml' },
    });
  });

  it('refuses a tag Compose does not have', () => {
    expect(readComposeDocument('services: {web: {image: !custom "a:1"}}', new Map()).ok).toBe(
      false,
    );
  });

  it('bounds what interpolation can grow to', () => {
    const big = 'x'.repeat(64 * 1024);
    const refs = Array.from({ length: 20 }, (_, i) => `      V${i}: "\${BIG}"`).join('\n');
    const result = readComposeDocument(
      `services:\n  web:\n    image: a:1\n    environment:\n${refs}\n`,
      vars({ BIG: big }),
    );
    expect(result).toMatchObject({ ok: false, cause: 'limits' });
  });
});
