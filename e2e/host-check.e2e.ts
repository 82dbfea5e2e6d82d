import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { flushRefusals, refusals } from './support/audit.js';
import { ensureWebBundle } from './support/browser.js';
import { PASSWORD, bearer, createToken, signUp, type Account } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MCP_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

/**
 * DNS rebinding: a page on an attacker's name that resolves to this server is, to the browser,
 * same-origin with it. Its requests arrive over loopback with `Host: <attacker's name>` and the
 * matching `Origin`, exactly as a page of Slipway's own would send them.
 */
/** A service with a public URL and an alias; the production default for sign-up. */
const startService = () =>
  startTestApp({
    notes: false,
    config: {
      openSignup: false,
      publicUrl: 'https://slipway.example.com',
      publicUrlAliases: ['http://slipway.lan:8080'],
    },
  });

const expectHostRefusal = (res: request.Response) => {
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({
    error: {
      code: 'FORBIDDEN',
      message: expect.stringContaining('SLIPWAY_PUBLIC_URL'),
      data: { reason: 'HOST_NOT_ALLOWED', requestId: expect.any(String) },
    },
  });
};

/** What the rebinding page's own script sends: same-origin, to the attacker's name. */
const rebound = (host: string) => ({
  Host: host,
  Origin: `http://${host}`,
  'Sec-Fetch-Site': 'same-origin',
});

describe('a fresh service answers only to its own names (DNS rebinding)', () => {
  let t: TestApp;
  let attacker: string;

  const signUpAs = (email: string, headers: Record<string, string>) =>
    request(t.url)
      .post('/api/auth/sign-up')
      .set(headers)
      .send({ email, password: PASSWORD, name: 'Mallory' });

  beforeAll(async () => {
    t = await startService();
    attacker = `attacker.example:${new URL(t.url).port}`;
  });
  afterAll(async () => t.close());

  it('refuses the first sign-up from a page on another name; the real owner signs up after', async () => {
    expectHostRefusal(await signUpAs('mallory@example.com', rebound(attacker)));
    expectHostRefusal(await signUpAs('mallory@example.com', rebound('attacker.example')));
    expectHostRefusal(await signUpAs('mallory@example.com', { Host: attacker }));
    // The dashboard's first-run page, which such a page would load first, is refused as well.
    expectHostRefusal(await request(t.url).get('/').set('Host', attacker));

    const owner = await signUp(t.url, 'owner@example.com');
    expect(owner.role).toBe('owner');
    // The refused sign-up is on the audit trail like any refused command.
    await flushRefusals(t);
    expect((await refusals(t)).map((e) => [e.data.target, e.data.code])).toContainEqual([
      'POST /api/auth/sign-up',
      'FORBIDDEN',
    ]);
  });
});

describe('every surface answers only to its own names', () => {
  let t: TestApp;
  let port: string;
  let attacker: string;
  let owner: Account;
  let token: string;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startService();
    port = new URL(t.url).port;
    attacker = `attacker.example:${port}`;
    owner = await signUp(t.url, 'owner@example.com');
    token = (await createToken(t.url, owner.cookie, ['deploy:read', 'server:read'])).token;
  });
  afterAll(async () => t.close());

  let agents = 0;
  const surfaces = (headers: Record<string, string>) => [
    request(t.url).get('/login').set('Accept', 'text/html').set(headers),
    request(t.url).get('/trpc/health').set(headers),
    request(t.url).get('/trpc/viewer').set(headers).set('Cookie', owner.cookie),
    request(t.url)
      .post('/trpc/createAgent')
      .set(headers)
      .set('Cookie', owner.cookie)
      .send({ json: { name: `agent-${++agents}` } }),
    request(t.url).get('/api/v1/me').set(headers).set(bearer(token)),
    request(t.url)
      .post('/mcp')
      .set(headers)
      .set(bearer(token))
      .set('Accept', 'application/json, text/event-stream')
      .send(MCP_LIST),
  ];

  it('refuses another name: dashboard, /trpc, /api/v1 and /mcp, with a cookie or a token', async () => {
    for (const headers of [rebound(attacker), { Host: attacker }, { Host: 'localhost.evil' }]) {
      for (const res of await Promise.all(surfaces(headers))) expectHostRefusal(res);
    }
    const created = await request(t.url).get('/trpc/agents').set('Cookie', owner.cookie);
    expect(created.body.result.data.json.items).toEqual([]);
  });

  it('answers to its public URLs, and to the loopback names on the port it listens on', async () => {
    const ours = [
      'slipway.example.com',
      'slipway.example.com:443',
      'slipway.lan:8080',
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
    ];
    for (const host of ours) {
      const statuses = (await Promise.all(surfaces({ Host: host }))).map((r) => r.status);
      expect([host, statuses]).toEqual([host, [200, 200, 200, 200, 200, 200]]);
    }
    // A loopback name on another port is another origin: not ours.
    expectHostRefusal(await request(t.url).get('/trpc/health').set('Host', 'localhost:1'));
  });

  it("judges a cookie request's Origin by the allowed names, not by its Host", async () => {
    const createAgent = (headers: Record<string, string>) =>
      request(t.url)
        .post('/trpc/createAgent')
        .set('Cookie', owner.cookie)
        .set(headers)
        .send({ json: { name: `agent-${++agents}` } });
    for (const origin of [
      'https://slipway.example.com',
      'http://slipway.lan:8080',
      `http://localhost:${port}`,
    ]) {
      const res = await createAgent({ Host: `127.0.0.1:${port}`, Origin: origin });
      expect([origin, res.status]).toEqual([origin, 200]);
    }
    const foreign = await createAgent({
      Host: `127.0.0.1:${port}`,
      Origin: `http://attacker.example:${port}`,
    });
    expect([foreign.status, foreign.body.error.data.reason]).toEqual([403, 'CROSS_SITE']);
  });
});

/** This machine's first address that is not loopback, as a container's own address would be. */
function externalAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
  if (!found) throw new Error('this suite needs a network interface with an IPv4 address');
  return found.address;
}

describe('bound to every address, as in the Docker image, without a public URL', () => {
  let t: TestApp;
  let port: string;
  let external: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false, listenHost: '0.0.0.0' });
    port = new URL(t.url).port;
    external = externalAddress();
  });
  afterAll(async () => t.close());

  const health = (url: string, host: string) => request(url).get('/trpc/health').set('Host', host);

  it('answers to the loopback names and to the address reached, on its port, over either', async () => {
    const overExternal = `http://${external}:${port}`;
    for (const url of [t.url, overExternal]) {
      // localhost:3000 reaches a container through its published port.
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
        expect([url, host, (await health(url, host)).status]).toEqual([url, host, 200]);
      }
    }
    expect((await health(overExternal, `${external}:${port}`)).status).toBe(200);
    expectHostRefusal(await health(overExternal, `attacker.example:${port}`));
    expectHostRefusal(await health(t.url, `attacker.example:${port}`));
    expectHostRefusal(await health(overExternal, `localhost:${Number(port) + 1}`));
  });
});
