import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import {
  PASSWORD,
  bearer,
  call,
  cookieAuth,
  createToken,
  signUp,
  type Account,
} from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const EVIL = 'https://evil.example';

describe('cookie-authenticated state changes refuse cross-site requests', () => {
  let t: TestApp;
  let owner: Account;
  let agents = 0;

  const createAgent = (headers: Record<string, string>) =>
    call(t.url, 'POST', 'createAgent', headers, { name: `agent-${++agents}` });

  const expectCrossSiteRefusal = (res: request.Response) => {
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: {
        code: 'FORBIDDEN',
        message: expect.any(String),
        data: { reason: 'CROSS_SITE', requestId: expect.any(String) },
      },
    });
  };

  const agentNames = async (): Promise<string[]> => {
    const res = await call(t.url, 'GET', 'agents', cookieAuth(owner.cookie));
    return (res.body.result.data.json.items as { name: string }[]).map((a) => a.name);
  };

  beforeAll(async () => {
    t = await startTestApp({
      notes: false,
      config: { publicUrl: 'https://slipway.example.com' },
    });
    owner = await signUp(t.url, 'owner@example.com');
  });
  afterAll(async () => t.close());

  it('refuses a mutation with the session cookie from another origin, and changes nothing', async () => {
    const before = await agentNames();
    const crossSite: Record<string, string>[] = [
      { Origin: EVIL },
      { Origin: 'null' },
      { Origin: 'https://slipway.example.com.evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://slipway.example.com', 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      expectCrossSiteRefusal(await createAgent({ ...cookieAuth(owner.cookie), ...headers }));
    }
    expect(await agentNames()).toEqual(before);
  });

  it('lets same-origin requests through: the public URL, the addressed host, Sec-Fetch-Site', async () => {
    const sameOrigin: Record<string, string>[] = [
      { Origin: 'https://slipway.example.com' },
      { Origin: t.url },
      { 'Sec-Fetch-Site': 'same-origin' },
      { Origin: t.url, 'Sec-Fetch-Site': 'same-origin' },
    ];
    for (const headers of sameOrigin) {
      const res = await createAgent({ ...cookieAuth(owner.cookie), ...headers });
      expect([headers, res.status]).toEqual([headers, 200]);
    }
  });

  it('lets requests without Origin or Sec-Fetch-Site through (the CLI)', async () => {
    expect((await createAgent(cookieAuth(owner.cookie))).status).toBe(200);
  });

  it('does not apply to bearer-token requests', async () => {
    // The agent's preset (read-only) must lie within the token: a token only narrows.
    const token = await createToken(t.url, owner.cookie, [
      'members:manage',
      'deploy:read',
      'server:read',
      'service:read',
      'approval:read',
      'logs:read',
      'diagnostics:read',
    ]);
    const res = await createAgent({ ...bearer(token.token), Origin: EVIL });
    expect(res.status).toBe(200);
  });

  it('guards the auth routes and /api/v1 too', async () => {
    const login = await request(t.url)
      .post('/api/auth/login')
      .set('Origin', EVIL)
      .send({ email: 'owner@example.com', password: PASSWORD });
    expectCrossSiteRefusal(login);
    expect(login.headers['set-cookie']).toBeUndefined();
    const logout = await request(t.url)
      .post('/api/auth/logout')
      .set('Cookie', owner.cookie)
      .set('Origin', EVIL)
      .send({});
    expectCrossSiteRefusal(logout);
    expectCrossSiteRefusal(
      await request(t.url).post('/api/v1/me').set('Cookie', owner.cookie).set('Origin', EVIL),
    );
    // The session survived the cross-site logout.
    expect((await call(t.url, 'GET', 'viewer', cookieAuth(owner.cookie))).status).toBe(200);
  });

  it('requires JSON on logout: text/plain and no content type are refused', async () => {
    const session = (await signUp(t.url, 'second@example.com')).cookie;
    const plain = await request(t.url)
      .post('/api/auth/logout')
      .set('Cookie', session)
      .set('Content-Type', 'text/plain')
      .send('{}');
    expect([plain.status, plain.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    const bare = await request(t.url).post('/api/auth/logout').set('Cookie', session);
    expect([bare.status, bare.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    expect((await call(t.url, 'GET', 'viewer', cookieAuth(session))).status).toBe(200);
    const json = await request(t.url).post('/api/auth/logout').set('Cookie', session).send({});
    expect(json.status).toBe(200);
    expect((await call(t.url, 'GET', 'viewer', cookieAuth(session))).status).toBe(401);
  });
});
