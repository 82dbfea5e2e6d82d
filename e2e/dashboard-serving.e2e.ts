import { readFileSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureWebBundle } from './support/browser.js';
import { signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const HTML = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
/** The `error.code` of a JSON error answer. */
const codeOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string } }).error.code;
/** A GET without the decoding fetch does: the headers and the bytes as sent. */
const raw = (base: string, path: string, encoding?: string) =>
  new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = httpGet(
      `${base}${path}`,
      { headers: encoding ? { 'Accept-Encoding': encoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
  });
const bundleIndex = fileURLToPath(new URL('../dist/web/index.html', import.meta.url));

describe('the dashboard is served at / with history fallback; the API keeps its answers', () => {
  let t: TestApp;
  let script: string;
  let stylesheet: string;

  beforeAll(async () => {
    ensureWebBundle();
    const index = readFileSync(bundleIndex, 'utf8');
    script = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1];
    stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(index)![1];
    t = await startTestApp({ notes: false });
  });
  afterAll(async () => t.close());

  it.each(['/', '/login', '/reset-password?token=abc', '/deployments/42', '/no/such/page'])(
    'answers a page request for %s with index.html, revalidated on every use',
    async (path) => {
      const res = await fetch(`${t.url}${path}`, { headers: HTML });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root"></div>');
    },
  );

  it('sends the HTML with a CSP that allows no inline script and no framing, no referrer, nosniff', async () => {
    const res = await fetch(`${t.url}/deployments`, { headers: HTML });
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('script-src-attr')).toBe("'none'");
    expect(directives.get('style-src')).toBe("'self'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    // The page itself carries no inline script for the CSP to refuse.
    const html = await res.text();
    expect(html.match(/<script[^>]*>/g)).toEqual([expect.stringContaining(`src="${script}"`)]);
  });

  it('serves hashed assets as immutable and the other files revalidated', async () => {
    const js = await fetch(`${t.url}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const css = await fetch(`${t.url}${stylesheet}`);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await fetch(`${t.url}/favicon.svg`);
    expect([icon.status, icon.headers.get('cache-control')]).toEqual([200, 'no-cache']);
  });

  it('sends the build’s compressed copies to browsers that take them: the same bytes decoded', async () => {
    const plain = await raw(t.url, script);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw(t.url, script, 'gzip, deflate, br');
    expect(br.headers).toMatchObject({
      'content-encoding': 'br',
      'content-type': expect.stringMatching(/javascript/),
      'cache-control': 'public, max-age=31536000, immutable',
      vary: expect.stringMatching(/accept-encoding/i),
    });
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const gzip = await raw(t.url, stylesheet, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals((await raw(t.url, stylesheet)).body)).toBe(true);
  });

  it('sends the first page’s script in under 100 KB on the wire (brotli)', async () => {
    const index = readFileSync(bundleIndex, 'utf8');
    const scripts = [
      ...index.matchAll(/<(?:script|link)[^>]*(?:src|href)="(\/assets\/[^"]+\.js)"/g),
    ];
    expect(scripts.map((m) => m[1])).toEqual([script]);
    const sent = await raw(t.url, script, 'br');
    expect(sent.headers['content-encoding']).toBe('br');
    expect(sent.body.length).toBeLessThan(100 * 1024);
  });

  it.each([
    ['an unknown asset', '/assets/index-nothere.js'],
    ['an unknown procedure', '/trpc/noSuchThing'],
    ['an unknown REST route', '/api/v1/nothing'],
    ['an unknown auth route', '/api/auth/nothing'],
    ['the API root', '/api'],
  ])('keeps the JSON 404 for %s, even for a page request', async (_label, path) => {
    const res = await fetch(`${t.url}${path}`, { headers: HTML });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await codeOf(res)).toBe('NOT_FOUND');
  });

  it('falls back only for page requests: a script, an API client or another method get the 404', async () => {
    const asScript = await fetch(`${t.url}/deployments/42`, { headers: { Accept: '*/*' } });
    expect([asScript.status, await codeOf(asScript)]).toEqual([404, 'NOT_FOUND']);
    const posted = await fetch(`${t.url}/deployments`, {
      method: 'POST',
      headers: { ...HTML, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect([posted.status, await codeOf(posted)]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers HEAD for a page like GET, without a body', async () => {
    const res = await fetch(`${t.url}/deployments`, { method: 'HEAD', headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('tells the first-run page whether the owner exists and sign-up is open, never cached', async () => {
    const before = await fetch(`${t.url}/api/auth/first-run`);
    expect(before.headers.get('cache-control')).toBe('no-store');
    // This suite's test app opens sign-up (startTestApp's default for suites).
    expect(await before.json()).toEqual({ ownerExists: false, openSignup: true });
    await signUp(t.url, 'owner@example.com');
    const after = await fetch(`${t.url}/api/auth/first-run`);
    expect(await after.json()).toEqual({ ownerExists: true, openSignup: true });
  });

  it('still lets a procedure answer a browser-like GET', async () => {
    const res = await fetch(`${t.url}/trpc/health`, { headers: HTML });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { data: { json: { status: string } } } };
    expect(body.result.data.json.status).toBe('ok');
  });
});
