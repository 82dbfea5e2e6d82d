import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rpcData } from './support/wire.js';
import { createToken, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Small seeded PRNG (mulberry32): the same 1,000 requests on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// `explode` (the test module's deliberate 500) is left out: the question is whether input can cause one.
const REAL = ['health', 'addNote', 'getNote'];
const WEIRD = [
  'nope',
  'a,b',
  '%00',
  'x'.repeat(300),
  '__proto__',
  'constructor',
  '..%2F..%2Fetc',
  'HEALTH',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  '',
  'application/json; charset=utf-16',
];

function randomValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * 12);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return r() > 0.5;
    case 2:
      return Math.floor(r() * 1e12) * (r() > 0.5 ? -1 : 1);
    case 3:
      return r() * 1e308;
    case 4:
      return 'é'.repeat(Math.floor(r() * 50));
    case 5:
      return 'x'.repeat(Math.floor(r() * 5000));
    case 6:
      return depth > 3
        ? 1
        : Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    case 7:
      return depth > 3
        ? 'deep'
        : Object.fromEntries(
            Array.from({ length: Math.floor(r() * 4) }, (_, i) => [
              `k${i}`,
              randomValue(r, depth + 1),
            ]),
          );
    case 8:
      return { noteId: randomValue(r, 4), text: randomValue(r, 4) };
    case 9:
      return { __proto__: { polluted: true }, constructor: { prototype: 1 } };
    case 10:
      return '\u0000\ud800<script>';
    default:
      return undefined;
  }
}

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

function deepObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function randomBody(r: () => number): string | undefined {
  const pick = Math.floor(r() * 10);
  switch (pick) {
    case 0:
      return undefined;
    case 1:
      return '{"json": {';
    case 2:
      return JSON.stringify({ json: randomValue(r) });
    case 3:
      return JSON.stringify(randomValue(r));
    case 4:
      return `{"json":${nested(5000 + Math.floor(r() * 50000))}}`;
    case 5:
      return JSON.stringify({
        json: { noteId: 'n', text: 'x'.repeat(r() > 0.7 ? 1_100_000 : 10) },
      });
    case 6:
      return JSON.stringify({
        json: randomValue(r),
        meta: { values: { 'a.__proto__.b': ['Date'] } },
      });
    case 7:
      return JSON.stringify({ json: randomValue(r), meta: randomValue(r) });
    case 8:
      return r() > 0.5 ? '\xff\xfe garbage' : `{"json":{"noteId":"d","text":${deepObject(20000)}}}`;
    default:
      return JSON.stringify({ json: { noteId: `fz${Math.floor(r() * 1e6)}`, text: 'fuzz' } });
  }
}

function randomQuery(r: () => number): string {
  const pick = Math.floor(r() * 8);
  const enc = encodeURIComponent;
  switch (pick) {
    case 0:
      return '';
    case 1:
      return `?input=${enc('{"json":')}`;
    case 2:
      return `?input=${enc(JSON.stringify({ json: randomValue(r) }))}`;
    case 3:
      return `?input=${enc(JSON.stringify({ json: { noteId: 'x'.repeat(Math.floor(r() * 12000)) } }))}`;
    case 4:
      return `?input=%E0%A4%A&input=2`;
    case 5:
      return `?input=${enc(`{"json":{"noteId":${r() > 0.5 ? nested(3000) : deepObject(1500)}}}`)}`;
    case 6:
      return `?input=${enc(JSON.stringify({ json: randomValue(r), meta: randomValue(r) }))}`;
    default:
      return `?input=${enc(JSON.stringify({ json: { noteId: 'fz' } }))}&other=${enc('x'.repeat(100))}`;
  }
}

describe('fuzzing /trpc/*', () => {
  let t: TestApp;
  let ownerToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await signUp(t.url, 'owner@example.com');
    ownerToken = (await createToken(t.url, owner.cookie, ['deploy:read', 'deploy:start'])).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 1,000 random and malformed requests with no 5xx, in the documented shape', async () => {
    const r = prng(20261122);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const requests = Array.from({ length: 1000 }, () => {
      const method = METHODS[Math.floor(r() * METHODS.length)];
      const names = r() < 0.75 ? REAL : WEIRD;
      const name = names[Math.floor(r() * names.length)];
      const body = method === 'GET' || method === 'HEAD' ? undefined : randomBody(r);
      const headers: Record<string, string> = {};
      const type = TYPES[Math.floor(r() * TYPES.length)];
      if (type) headers['Content-Type'] = type;
      const auth = r();
      if (auth < 0.6) headers.Authorization = `Bearer ${ownerToken}`;
      else if (auth < 0.7)
        headers.Authorization = `Bearer ${'slw_'.padEnd(Math.floor(r() * 400), 'z')}`;
      else if (auth < 0.75)
        headers.Cookie = `slipway_session=${'c'.repeat(Math.floor(r() * 9000))}`;
      return { method, path: `/trpc/${name}${randomQuery(r)}`, body, headers };
    });
    const targets = requests;
    for (let i = 0; i < targets.length; i += 10) {
      await Promise.all(
        targets.slice(i, i + 10).map(async (req) => {
          const res = await fetch(t.url + req.path, {
            method: req.method,
            headers: req.headers,
            body: req.body,
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const text = await res.text();
          if (res.status >= 500)
            failures.push(
              `${res.status} ${req.method} ${req.path.slice(0, 120)}: ${text.slice(0, 200)}`,
            );
          if (res.status >= 400 && req.method !== 'HEAD') {
            let body: { error?: { code?: unknown; message?: unknown; data?: unknown } } = {};
            try {
              body = JSON.parse(text);
            } catch {
              failures.push(`non-JSON ${res.status} ${req.method} ${req.path.slice(0, 80)}`);
            }
            const e = body.error;
            if (
              !e ||
              typeof e.code !== 'string' ||
              typeof e.message !== 'string' ||
              typeof e.data !== 'object'
            ) {
              failures.push(
                `bad shape ${res.status} ${req.method} ${req.path.slice(0, 80)}: ${text.slice(0, 200)}`,
              );
            }
          }
        }),
      );
    }
    expect(failures).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(1000);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
    const health = await fetch(`${t.url}/trpc/health`);
    expect(health.status).toBe(200);
    expect((await rpcData<{ status: string }>(health)).status).toBe('ok');
  });
});
