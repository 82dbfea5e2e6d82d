import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';

type Answer = { label: string; res: Response };

/** One answer of each kind: success, refusals, unknown routes, bodies refused before routing. */
async function answersOf(url: string): Promise<Answer[]> {
  const json = { 'Content-Type': 'application/json' };
  return [
    { label: 'health', res: await fetch(`${url}/trpc/health`) },
    { label: 'no credentials', res: await fetch(`${url}/trpc/viewer`) },
    { label: 'unknown procedure', res: await fetch(`${url}/trpc/noSuchThing`) },
    { label: 'unknown route', res: await fetch(`${url}/nowhere/at/all`) },
    { label: 'REST 401', res: await fetch(`${url}/api/v1/me`) },
    {
      label: 'malformed JSON',
      res: await fetch(`${url}/api/auth/login`, { method: 'POST', headers: json, body: '{' }),
    },
    {
      label: 'wrong method',
      res: await fetch(`${url}/trpc/health`, { method: 'POST', headers: json, body: '{}' }),
    },
    {
      label: 'oversized headers',
      res: await fetch(`${url}/trpc/health`, { headers: { 'X-Big': 'y'.repeat(20_000) } }),
    },
  ];
}

describe('security headers on every answer', () => {
  let plain: TestApp;
  let https: TestApp;

  beforeAll(async () => {
    plain = await startTestApp({ notes: false });
    https = await startTestApp({
      notes: false,
      config: { publicUrl: 'https://slipway.example.com' },
    });
  });
  afterAll(async () => {
    await plain.close();
    await https.close();
  });

  it('sends nosniff, no-referrer and a CSP that forbids framing, on successes and errors alike', async () => {
    const answers = await answersOf(plain.url);
    expect(answers.map((a) => [a.label, a.res.status])).toEqual([
      ['health', 200],
      ['no credentials', 401],
      ['unknown procedure', 404],
      ['unknown route', 404],
      ['REST 401', 401],
      ['malformed JSON', 400],
      ['wrong method', 405],
      ['oversized headers', 413],
    ]);
    for (const { label, res } of answers) {
      const headers = { label, nosniff: res.headers.get('x-content-type-options') };
      expect(headers).toEqual({ label, nosniff: 'nosniff' });
      expect([label, res.headers.get('referrer-policy')]).toEqual([label, 'no-referrer']);
      expect([label, res.headers.get('content-security-policy')]).toEqual([
        label,
        expect.stringContaining("frame-ancestors 'none'"),
      ]);
      // Served over plain http: no HSTS.
      expect([label, res.headers.get('strict-transport-security')]).toEqual([label, null]);
    }
  });

  it("lets a same-origin dashboard live with the CSP: default-src 'self', no upgrade over http", async () => {
    const csp = (await fetch(`${plain.url}/trpc/health`)).headers.get('content-security-policy');
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('adds HSTS when the public URL is https', async () => {
    for (const { label, res } of await answersOf(https.url)) {
      if (label === 'oversized headers') continue; // answered by Node itself, over the raw socket
      expect([label, res.headers.get('strict-transport-security')]).toEqual([
        label,
        expect.stringMatching(/^max-age=\d{7,}/),
      ]);
    }
  });
});
