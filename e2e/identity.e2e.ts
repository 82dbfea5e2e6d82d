import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import {
  PASSWORD,
  bearer,
  call,
  cookieAuth,
  createToken,
  logIn,
  sessionCookie,
  signUp,
} from './support/identity.js';
import { HOUR, MINUTE, TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('spec 4.3: agent provisioning end to end over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('owner signs up, creates an agent, mints its token; the agent reads and is refused commands', async () => {
    const owner = await signUp(t.url, 'owner@example.com');
    expect(owner.role).toBe('owner');
    const agent = await call(t.url, 'POST', 'createAgent', cookieAuth(owner.cookie), {
      name: 'release-bot',
      preset: 'agent:read-only',
    });
    expect(agent.status).toBe(200);
    const { principalId } = agent.body.result.data.json;
    const minted = await call(t.url, 'POST', 'generateAgentToken', cookieAuth(owner.cookie), {
      principalId,
      tokenName: 'ci',
      expiresInDays: 30,
    });
    expect(minted.status).toBe(200);
    const { token } = minted.body.result.data.json;
    expect(token).toMatch(/^slw_[0-9A-Za-z]{49}$/);

    const viewer = await call(t.url, 'GET', 'viewer', bearer(token));
    expect(viewer.body.result.data.json).toMatchObject({
      principal: { id: principalId, kind: 'agent', role: 'agent', preset: 'agent:read-only' },
      authMethod: 'token',
      token: { name: 'ci', lane: 'read', expiresAt: expect.any(String) },
      session: null,
    });
    expect(JSON.stringify(viewer.body)).not.toContain(token);
    const read = await call(t.url, 'GET', 'getNote', bearer(token), { noteId: 'none' });
    expect(read.status).toBe(200);
    const write = await call(t.url, 'POST', 'addNote', bearer(token), { noteId: 'n', text: 'x' });
    expect(write.status).toBe(403);
    expect(write.body.error).toMatchObject({
      code: 'FORBIDDEN',
      data: {
        requiredScopes: ['deploy:start'],
        grantedScopes: [
          'approval:read',
          'deploy:read',
          'diagnostics:read',
          'logs:read',
          'server:read',
          'service:read',
        ],
      },
    });
  });

  it('refuses to mint agent scopes beyond the preset, listing them, and requires expiry', async () => {
    const owner = await logIn(t.url, 'owner@example.com');
    const agent = await call(t.url, 'POST', 'createAgent', cookieAuth(owner), { name: 'reader' });
    expect(agent.body.result.data.json.preset).toBe('agent:read-only');
    const principalId = agent.body.result.data.json.principalId;
    const wide = await call(t.url, 'POST', 'generateAgentToken', cookieAuth(owner), {
      principalId,
      tokenName: 'x',
      expiresInDays: 5,
      scopes: ['deploy:read', 'deploy:start'],
    });
    expect(wide.status).toBe(403);
    expect(wide.body.error.data.refusedScopes).toEqual(['deploy:start']);
    const forever = await call(t.url, 'POST', 'generateAgentToken', cookieAuth(owner), {
      principalId,
      tokenName: 'x',
    });
    expect(forever.status).toBe(400);
    expect(forever.body.error.data.issues.map((i: { path: string }) => i.path)).toContain(
      'expiresInDays',
    );
    const tooLong = await call(t.url, 'POST', 'generateAgentToken', cookieAuth(owner), {
      principalId,
      tokenName: 'x',
      expiresInDays: 366,
    });
    expect(tooLong.status).toBe(400);
  });
});

describe('first sign-up', () => {
  it('makes exactly one owner out of 20 parallel first sign-ups', async () => {
    const t = await startTestApp({ notes: false });
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          request(t.url)
            .post('/api/auth/sign-up')
            .send({ email: `racer${i}@example.com`, password: PASSWORD, name: `r${i}` }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(results.filter((r) => r.body.user.role === 'owner')).toHaveLength(1);
      const owner = results.find((r) => r.body.user.role === 'owner')!;
      const members = await call(
        t.url,
        'GET',
        'members',
        cookieAuth(sessionCookie(owner.headers['set-cookie'])),
        { limit: 100 },
      );
      expect(members.body.result.data.json.items).toHaveLength(20);
      expect(
        members.body.result.data.json.items.filter((m: { role: string }) => m.role === 'owner'),
      ).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('sessions, roles and deactivation', () => {
  const clock = new TestClock();
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    owner = (await signUp(t.url, 'boss@example.com')).cookie;
  });
  afterAll(async () => t.close());

  it('sets a HttpOnly, Secure, SameSite=Lax session cookie and never returns the password hash', async () => {
    const res = await request(t.url)
      .post('/api/auth/sign-up')
      .send({ email: ' Mixed@Example.COM ', password: PASSWORD, name: ' Mo ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { id: expect.any(String), email: 'mixed@example.com', name: 'Mo', role: 'viewer' },
    });
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('slipway_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    const again = await request(t.url)
      .post('/api/auth/sign-up')
      .send({ email: 'MIXED@example.com', password: PASSWORD, name: 'x' });
    expect(again.status).toBe(409);
  });

  it('validates sign-up input with per-field issues', async () => {
    const res = await request(t.url)
      .post('/api/auth/sign-up')
      .send({ email: 'not-an-email', password: 'short', name: '' });
    expect(res.status).toBe(400);
    expect(res.body.error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'email',
      'name',
      'password',
    ]);
    const long = await request(t.url)
      .post('/api/auth/sign-up')
      .send({ email: 'l@example.com', password: 'x'.repeat(257), name: 'l' });
    expect(long.status).toBe(400);
  });

  it('answers a wrong email and a wrong password identically', async () => {
    const wrongEmail = await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'ghost@example.com', password: PASSWORD });
    const wrongPassword = await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'boss@example.com', password: 'not the password' });
    for (const res of [wrongEmail, wrongPassword]) {
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const strip = (b: { error: { data: Record<string, unknown> } }) => ({
      ...b.error,
      data: { ...b.error.data, requestId: null },
    });
    expect(strip(wrongEmail.body)).toEqual(strip(wrongPassword.body));
    expect(wrongEmail.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('logs in, and logs out so that the cookie is refused afterwards', async () => {
    const res = await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'BOSS@example.com', password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'authenticated' });
    const cookie = sessionCookie(res.headers['set-cookie']);
    expect(
      (await call(t.url, 'GET', 'viewer', cookieAuth(cookie))).body.result.data.json,
    ).toMatchObject({
      authMethod: 'session',
      token: null,
      session: { expiresAt: expect.any(String) },
    });
    const out = await request(t.url).post('/api/auth/logout').set('Cookie', cookie).send({});
    expect(out.status).toBe(200);
    const after = await call(t.url, 'GET', 'viewer', cookieAuth(cookie));
    expect([after.status, after.body.error.code]).toEqual([401, 'SESSION_EXPIRED']);
  });

  it('expires an idle session, and a busy one at its absolute limit', async () => {
    const idle = await logIn(t.url, 'boss@example.com');
    clock.advance(61 * MINUTE);
    expect((await call(t.url, 'GET', 'viewer', cookieAuth(idle))).body.error.code).toBe(
      'SESSION_EXPIRED',
    );
    const busy = await logIn(t.url, 'boss@example.com');
    for (let h = 0; h < 11; h++) {
      clock.advance(HOUR - MINUTE);
      expect((await call(t.url, 'GET', 'viewer', cookieAuth(busy))).status).toBe(200);
    }
    clock.advance(2 * HOUR);
    expect((await call(t.url, 'GET', 'viewer', cookieAuth(busy))).body.error.code).toBe(
      'SESSION_EXPIRED',
    );
    owner = await logIn(t.url, 'boss@example.com');
  });

  it('applies a role change to the very next request, within the granter’s own rank', async () => {
    const user = await signUp(t.url, 'rising@example.com');
    const denied = await call(t.url, 'POST', 'createAgent', cookieAuth(user.cookie), { name: 'a' });
    expect(denied.status).toBe(403);
    const promoted = await call(t.url, 'POST', 'changeUserRole', cookieAuth(owner), {
      userId: user.userId,
      role: 'admin',
    });
    expect(promoted.status).toBe(200);
    expect(
      (await call(t.url, 'POST', 'createAgent', cookieAuth(user.cookie), { name: 'a' })).status,
    ).toBe(200);
    const toOwner = await call(t.url, 'POST', 'changeUserRole', cookieAuth(user.cookie), {
      userId: user.userId,
      role: 'owner',
    });
    expect([toOwner.status, toOwner.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const me = (await call(t.url, 'GET', 'viewer', cookieAuth(owner))).body.result.data.json
      .principal.id;
    const demoteLast = await call(t.url, 'POST', 'changeUserRole', cookieAuth(owner), {
      userId: me,
      role: 'admin',
    });
    expect([demoteLast.status, demoteLast.body.error.code]).toEqual([409, 'CONFLICT']);
    const adminOnOwner = await call(t.url, 'POST', 'deactivateUser', cookieAuth(user.cookie), {
      userId: me,
    });
    expect(adminOnOwner.status).toBe(403);
  });

  it('deactivates a user: sessions end, tokens are refused, login fails', async () => {
    const user = await signUp(t.url, 'leaver@example.com');
    await call(t.url, 'POST', 'changeUserRole', cookieAuth(owner), {
      userId: user.userId,
      role: 'admin',
    });
    const token = await createToken(t.url, user.cookie, ['members:read'], 30);
    expect((await call(t.url, 'GET', 'members', bearer(token.token))).status).toBe(200);
    const res = await call(t.url, 'POST', 'deactivateUser', cookieAuth(owner), {
      userId: user.userId,
    });
    expect(res.body.result.data.json).toEqual({ userId: user.userId, endedSessions: 1 });
    expect((await call(t.url, 'GET', 'viewer', cookieAuth(user.cookie))).body.error.code).toBe(
      'SESSION_EXPIRED',
    );
    expect((await call(t.url, 'GET', 'members', bearer(token.token))).body.error.code).toBe(
      'TOKEN_INVALIDATED',
    );
    const login = await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'leaver@example.com', password: PASSWORD });
    expect([login.status, login.body.error.code]).toEqual([401, 'INVALID_CREDENTIALS']);
  });

  it('rotates a token: the old one works through the overlap, then is refused', async () => {
    const old = await createToken(t.url, owner, ['members:read'], 30);
    const rotated = await call(t.url, 'POST', 'rotateToken', cookieAuth(owner), {
      tokenId: old.tokenId,
      overlapMinutes: 10,
    });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.result.data.json;
    expect(fresh).toMatchObject({
      replaces: old.tokenId,
      scopes: ['members:read'],
      token: expect.stringMatching(/^slw_/),
    });
    expect((await call(t.url, 'GET', 'members', bearer(old.token))).status).toBe(200);
    clock.advance(11 * MINUTE);
    owner = await logIn(t.url, 'boss@example.com');
    expect((await call(t.url, 'GET', 'members', bearer(old.token))).body.error.code).toBe(
      'TOKEN_INVALIDATED',
    );
    expect((await call(t.url, 'GET', 'members', bearer(fresh.token))).status).toBe(200);
    const twice = await call(t.url, 'POST', 'rotateToken', cookieAuth(owner), {
      tokenId: old.tokenId,
      overlapMinutes: 0,
    });
    expect(twice.status).toBe(409);
  });

  it('lists token metadata with last use, and never a value or digest', async () => {
    const minted = await createToken(t.url, owner, ['members:read'], 30);
    await call(t.url, 'GET', 'members', bearer(minted.token));
    const list = await call(t.url, 'GET', 'tokens', cookieAuth(owner), { limit: 100 });
    const entry = list.body.result.data.json.items.find(
      (i: { tokenId: string }) => i.tokenId === minted.tokenId,
    );
    expect(entry).toMatchObject({
      name: 't-members:read',
      lane: 'read',
      state: 'active',
      lastUsedAt: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain(minted.token);
    expect(JSON.stringify(list.body)).not.toMatch(/digest|[0-9a-f]{64}/);
  });

  it('records no secret in any event: no password, token value or session cookie', async () => {
    const fresh = await createToken(t.url, owner, ['members:read'], 1);
    const events = t.app.get<EventStore>(EVENT_STORE);
    const all = JSON.stringify(await events.readAll(0n, 10_000), (_k, v) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(fresh.token);
    expect(all).not.toContain(owner.split('=')[1]);
  });
});
