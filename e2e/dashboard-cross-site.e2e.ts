import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Request } from 'playwright-core';
import { ensureWebBundle, launchBrowser, logInThroughPage } from './support/browser.js';
import { call, cookieAuth, logIn, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Pages an attacker serves from another origin, each trying to make the signed-in browser change
 * state on Slipway: forms that post on their own (a top-level navigation, cookie included where
 * SameSite lets it) and no-cors fetches with credentials. A text/plain form can carry a JSON body.
 */
function attackPages(target: string): Record<string, string> {
  const autoSubmit = (action: string, enctype: string, name: string, value: string) =>
    `<form method="POST" action="${target}${action}" enctype="${enctype}">` +
    `<input type="hidden" name='${name}' value='${value}'></form>` +
    '<script>document.forms[0].submit()</script>';
  return {
    '/form-token': autoSubmit(
      '/trpc/createToken',
      'text/plain',
      '{"json":{"tokenName":"stolen","scopes":["deploy:read"],"x":"',
      '"}}',
    ),
    '/form-logout': autoSubmit('/api/auth/logout', 'application/x-www-form-urlencoded', 'a', 'b'),
    '/fetch':
      '<script>(async () => {' +
      `const post = (path, type, body) => fetch("${target}" + path, {method: "POST", mode: "no-cors", credentials: "include", headers: {"Content-Type": type}, body}).catch(() => null);` +
      'await post("/trpc/createToken", "text/plain", JSON.stringify({json: {tokenName: "fetched", scopes: ["deploy:read"]}}));' +
      'await post("/api/auth/logout", "text/plain", "{}");' +
      'await post("/trpc/createAgent", "application/x-www-form-urlencoded", "name=evil");' +
      'document.title = "done";' +
      '})()</script>',
  };
}

async function startAttacker(target: string): Promise<{ server: Server; port: number }> {
  const pages = attackPages(target);
  const server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'Content-Type': 'text/html' });
    res.end(page ? `<!doctype html><title>attack</title>${page}` : 'not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('the signed-in dashboard against requests forged from other origins', () => {
  let t: TestApp;
  let attacker: Awaited<ReturnType<typeof startAttacker>>;
  let browser: Browser;
  let owner: Record<string, string>;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    attacker = await startAttacker(t.url);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => attacker?.server.close(() => resolve()));
    await t?.close();
  });

  async function signedInContext(): Promise<BrowserContext> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/login`);
    await logInThroughPage(page, 'owner@example.com');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.close();
    return context;
  }

  const tokenNames = async () =>
    (
      (await call(t.url, 'GET', 'tokens', owner)).body.result.data.json.items as {
        name: string;
      }[]
    ).map((x) => x.name);

  // 127.0.0.1 on another port is the same site (cookies do not care for ports, so SameSite=Lax
  // sends the session along) but another origin; localhost is another site altogether.
  it.each([
    ['the same site, another origin', (port: number) => `http://127.0.0.1:${port}`, true],
    ['another site', (port: number) => `http://localhost:${port}`, false],
  ])(
    'refuses every forged state change from %s, and the session lives on',
    async (_label, originOf, cookieSent) => {
      const context = await signedInContext();
      const page = await context.newPage();
      const evil = originOf(attacker.port);
      const forged: Request[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().startsWith(t.url)) forged.push(r);
      });

      for (const form of ['/form-token', '/form-logout']) {
        const answer = page.waitForResponse((r) => r.url().startsWith(t.url));
        await page.goto(`${evil}${form}`);
        const res = await answer;
        expect(res.status()).toBe(403);
        expect(await res.json()).toMatchObject({
          error: { code: 'FORBIDDEN', data: { reason: 'CROSS_SITE' } },
        });
      }
      await page.goto(`${evil}/fetch`);
      await page.waitForFunction('document.title === "done"');

      expect(forged.map((r) => new URL(r.url()).pathname)).toEqual([
        '/trpc/createToken',
        '/api/auth/logout',
        '/trpc/createToken',
        '/api/auth/logout',
        '/trpc/createAgent',
      ]);
      // What the browser sent with the forms (of a fetch it reports only part of the headers).
      for (const r of forged.slice(0, 2)) {
        const headers = await r.allHeaders();
        expect(headers.origin).toBe(evil);
        expect(headers['sec-fetch-site']).toBe(cookieSent ? 'same-site' : 'cross-site');
        // Where the browser sent the cookie along, only the server's check stood in the way.
        expect(headers.cookie?.includes('slipway_session=') ?? false).toBe(cookieSent);
      }

      // Nothing changed: no token, no agent, and the browser's session still works.
      expect(await tokenNames()).toEqual([]);
      const agents = await call(t.url, 'GET', 'agents', owner);
      expect(agents.body.result.data.json.items).toEqual([]);
      const viewer = await context.request.get(`${t.url}/trpc/viewer`);
      expect(viewer.status()).toBe(200);
      await context.close();
    },
  );

  it('lets the dashboard itself change state from its own origin', async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/`);
    const status = await page.evaluate(async () => {
      const res = await fetch('/trpc/createToken', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ json: { tokenName: 'mine', scopes: ['deploy:read'] } }),
      });
      return res.status;
    });
    expect(status).toBe(200);
    expect(await tokenNames()).toEqual(['mine']);
    // And a script or the CLI with a bearer token or no browser headers is not affected.
    const cookie = await logIn(t.url, 'owner@example.com');
    const cli = await call(t.url, 'POST', 'createAgent', cookieAuth(cookie), { name: 'cli-agent' });
    expect(cli.status).toBe(200);
    await context.close();
  });
});
