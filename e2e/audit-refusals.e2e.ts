import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { DEFAULT_COALESCER_LIMITS } from '../src/audit/refusals/refusal-coalescer.js';
import { allEvents, eventsText, flushRefusals, refusals, trail } from './support/audit.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
  type Account,
} from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { TestClock } from './support/test-clock.js';

describe('audit: refused and failed calls are recorded, bounded, and fail closed', () => {
  let t: TestApp;
  let account: Account;
  let owner: Record<string, string>;
  const clock = new TestClock();

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    account = await signUp(t.url, 'owner@example.com', 'Olive Owner');
    owner = cookieAuth(account.cookie);
  });
  afterAll(async () => t.close());

  /** The refusal events written since `before` (a count of events). */
  const since = async (before: number) => (await allEvents(t)).slice(before);
  const newRefusals = async (before: number) =>
    (await since(before)).filter((e) => e.type === 'AccessDenied' || e.type === 'CommandRejected');

  it('records a call without credentials as AccessDenied: procedure, anonymous, address, input field names', async () => {
    const before = (await allEvents(t)).length;
    const res = await call(
      t.url,
      'POST',
      'registerServer',
      {},
      {
        name: 'db-1',
        host: '10.0.0.9',
        privateKey: 'SECRET-KEY-MATERIAL',
      },
    );
    expect(res.status).toBe(401);
    const [event] = await newRefusals(before);
    expect(event).toMatchObject({
      type: 'AccessDenied',
      stream: 'audit-refusals',
      data: {
        surface: 'procedure',
        target: 'registerServer',
        lane: 'command',
        code: 'AUTH_REQUIRED',
        inputFields: ['name', 'host', 'privateKey'],
        count: 1,
        coalesced: false,
      },
      metadata: {
        actor: { principalId: null, kind: 'anonymous', role: null },
        authMethod: 'none',
        tokenId: null,
        requestId: res.headers['x-request-id'],
      },
    });
    expect(await eventsText(t)).not.toContain('SECRET-KEY-MATERIAL');
    const [entry] = (await trail(t, owner, { outcome: 'denied', limit: 1 })).entries;
    expect(entry).toMatchObject({
      action: 'AccessDenied',
      resource: 'procedure:registerServer',
      outcome: 'denied',
      code: 'AUTH_REQUIRED',
      actor: { label: 'anonymous' },
      requestId: res.headers['x-request-id'],
    });
    expect(entry.clientAddress).toMatch(/127\.0\.0\.1/);
  });

  it('names the principal and token of a revoked token, and of a token lacking the scope', async () => {
    const minted = await createToken(t.url, account.cookie, ['deploy:read'], 7);
    const forbidden = await call(t.url, 'POST', 'createAgent', bearer(minted.token), { name: 'x' });
    expect(forbidden.status).toBe(403);
    await call(t.url, 'POST', 'revokeToken', owner, { tokenId: minted.tokenId });
    const before = (await allEvents(t)).length;
    expect((await call(t.url, 'GET', 'viewer', bearer(minted.token))).status).toBe(401);
    const [revoked] = await newRefusals(before);
    expect(revoked).toMatchObject({
      type: 'AccessDenied',
      data: { target: 'viewer', lane: 'read', code: 'TOKEN_REVOKED' },
      metadata: {
        actor: { principalId: account.userId },
        authMethod: 'token',
        tokenId: minted.tokenId,
      },
    });
    const denied = await trail(t, owner, {
      action: 'AccessDenied',
      resource: 'procedure:createAgent',
    });
    expect(denied.entries[0]).toMatchObject({
      code: 'FORBIDDEN',
      actor: {
        id: account.userId,
        kind: 'user',
        role: 'owner',
        label: 'Olive Owner <owner@example.com>',
      },
      authMethod: 'token',
      token: { id: minted.tokenId, name: 't-deploy:read' },
    });
  });

  it('records failed commands as CommandRejected but not a read that merely had bad input', async () => {
    const before = (await allEvents(t)).length;
    const bad = await call(t.url, 'POST', 'changeUserRole', owner, {
      userId: 'nope',
      role: 'emperor',
    });
    expect(bad.status).toBe(400);
    const missing = await call(t.url, 'POST', 'deactivateUser', owner, {
      userId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.status).toBe(404);
    expect((await call(t.url, 'GET', 'recentDeployments', owner, { limit: 0 })).status).toBe(400);
    const written = await newRefusals(before);
    expect(written.map((e) => [e.type, e.data.target, e.data.code])).toEqual([
      ['CommandRejected', 'changeUserRole', 'BAD_REQUEST'],
      ['CommandRejected', 'deactivateUser', 'NOT_FOUND'],
    ]);
    expect(written[0].metadata).toMatchObject({
      actor: { principalId: account.userId, kind: 'user' },
      authMethod: 'session',
    });
  });

  it('audits sign-in failures (aimed at an account or not), MFA and reset failures, never the password', async () => {
    const before = (await allEvents(t)).length;
    await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'owner@example.com', password: 'wrong-password-1' })
      .expect(401);
    await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'nobody@example.com', password: 'wrong-password-2' })
      .expect(401);
    await request(t.url)
      .post('/api/auth/login/verify')
      .send({ challenge: 'x'.repeat(43), totpCode: '123456' })
      .expect(401);
    await request(t.url)
      .post('/api/auth/reset-password')
      .send({ token: 'y'.repeat(43), newPassword: 'a new password 123' })
      .expect((r) => expect(r.status).toBeGreaterThanOrEqual(400));
    const written = await newRefusals(before);
    expect(written.map((e) => [e.data.target, e.data.code, e.metadata.actor.principalId])).toEqual([
      ['POST /api/auth/login', 'INVALID_CREDENTIALS', account.userId],
      ['POST /api/auth/login', 'INVALID_CREDENTIALS', null],
      ['POST /api/auth/login/verify', 'INVALID_CREDENTIALS', null],
      ['POST /api/auth/reset-password', expect.any(String), null],
    ]);
    expect(written[0].data.inputFields).toEqual(['email', 'password']);
    const text = await eventsText(t);
    for (const secret of [
      'wrong-password-1',
      'wrong-password-2',
      'a new password 123',
      'nobody@example.com',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('records guarded REST routes and the MFA policy refusal on them', async () => {
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    const before = (await allEvents(t)).length;
    await request(t.url).get('/api/v1/audit/export').set(viewer).expect(403);
    const [event] = await newRefusals(before);
    expect(event.data).toMatchObject({
      surface: 'route',
      target: 'GET /api/v1/audit/export',
      code: 'FORBIDDEN',
    });
  });

  it('records a body refused before routing (not JSON, too large) against the procedure it was sent to', async () => {
    const before = (await allEvents(t)).length;
    const malformed = await request(t.url)
      .post('/trpc/createAgent')
      .set('Content-Type', 'application/json')
      .send('{"json": {"name": ');
    expect(malformed.status).toBe(400);
    const large = await request(t.url)
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'x@example.com', password: 'p'.repeat(1_100_000) }));
    expect(large.status).toBe(413);
    const written = await newRefusals(before);
    expect(written.map((e) => [e.type, e.data.target, e.data.code])).toEqual([
      ['CommandRejected', 'createAgent', 'BAD_REQUEST'],
      ['CommandRejected', 'POST /api/auth/login', 'PAYLOAD_TOO_LARGE'],
    ]);
    expect(written[0].metadata.requestId).toBe(malformed.headers['x-request-id']);
  });

  it('puts a command that succeeded without changing anything on the trail too', async () => {
    const member = await signUp(t.url, 'same-role@example.com');
    const change = () =>
      call(t.url, 'POST', 'changeUserRole', owner, { userId: member.userId, role: 'operator' });
    const first = await change();
    const again = await change();
    expect([first.status, again.status]).toEqual([200, 200]);
    const [changed] = (await trail(t, owner, { requestId: first.headers['x-request-id'] })).entries;
    expect(changed).toMatchObject({ action: 'UserRoleChanged', outcome: 'succeeded' });
    const [noEffect] = (await trail(t, owner, { requestId: again.headers['x-request-id'] }))
      .entries;
    expect(noEffect).toMatchObject({
      action: 'CommandHadNoEffect',
      outcome: 'succeeded',
      resource: 'procedure:changeUserRole',
      count: 1,
      inputFields: ['userId', 'role'],
      actor: { id: account.userId },
      authMethod: 'session',
    });
  });

  it('coalesces a flood of 10,000 identical refusals from one client into 2 events with the full count', async () => {
    const before = (await allEvents(t)).length;
    const total = 10_000;
    let sent = 0;
    // node:http over kept-alive sockets: the flood costs the server's side, not a fetch client's.
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const statuses = new Map<number, number>();
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${t.url}/trpc/createAgent`,
          { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end('{"json":{"name":"flood"}}');
      });
    const worker = async () => {
      while (sent < total) {
        sent += 1;
        const status = await post();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    // A slow machine must not see the 60-second window close mid-flood.
    clock.freeze();
    try {
      await Promise.all(Array.from({ length: 16 }, worker));
    } finally {
      clock.thaw();
      agent.destroy();
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: total });
    await flushRefusals(t);
    const written = (await newRefusals(before)).filter((e) => e.data.target === 'createAgent');
    // Bound: the first of the window at once, every repeat in one closing event.
    expect(written.length).toBe(2);
    expect(written.map((e) => e.data.coalesced)).toEqual([false, true]);
    expect(written.reduce((n, e) => n + Number(e.data.count), 0)).toBe(total);
  }, 120_000);

  it('caps what one client can write per window however it varies its refusals', async () => {
    const before = (await allEvents(t)).length;
    const names = ['createAgent', 'createToken', 'revokeToken', 'registerServer', 'triggerDeploy'];
    const bad = ['Bearer slw_bogus', 'Basic abc', 'Bearer nope', ''];
    for (let i = 0; i < 400; i++) {
      const name = names[i % names.length];
      const auth = bad[i % bad.length];
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (auth) headers.Authorization = `${auth}${i}`;
      const res = await fetch(`${t.url}/trpc/${name}${i % 7 === 0 ? i : ''}`, {
        method: 'POST',
        headers,
        body: '{"json":{}}',
      });
      await res.arrayBuffer();
    }
    await flushRefusals(t);
    const written = await newRefusals(before);
    // keysPerClient kinds + the overflow kinds (refusals per surface, no-effect calls), each at
    // most twice per window.
    expect(written.length).toBeLessThanOrEqual(2 * (DEFAULT_COALESCER_LIMITS.keysPerClient + 3));
  });

  it('opens a new window once the old one has run out', async () => {
    const before = (await allEvents(t)).length;
    const once = () =>
      call(t.url, 'POST', 'createAgent', { Authorization: 'Bearer slw_window' }, { name: 'w' });
    await once();
    await once();
    clock.advance(61_000);
    await once();
    await flushRefusals(t);
    const written = (await newRefusals(before)).map((e) => [e.data.count, e.data.coalesced]);
    expect(written).toEqual([
      [1, false],
      [1, true],
      [1, false],
    ]);
  });

  it('fails closed: when the refusal cannot be recorded, the caller gets 503, not the refusal', async () => {
    const store = t.app.get<EventStore>(EVENT_STORE);
    const spy = jest.spyOn(store, 'append').mockRejectedValue(new Error('disk full'));
    try {
      const res = await call(
        t.url,
        'POST',
        'createAgent',
        { Authorization: 'Bearer slw_failclosed' },
        {},
      );
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      // The same refusal again is not quietly coalesced into a window that was never written.
      const again = await call(
        t.url,
        'POST',
        'createAgent',
        { Authorization: 'Bearer slw_failclosed' },
        {},
      );
      expect(again.status).toBe(503);
      // And a command whose events cannot be written is not acknowledged either.
      const command = await call(t.url, 'POST', 'createAgent', owner, { name: 'never' });
      expect(command.status).toBeGreaterThanOrEqual(500);
    } finally {
      spy.mockRestore();
    }
    const members = await call(t.url, 'GET', 'agents', owner, { limit: 50 });
    expect(JSON.stringify(members.body)).not.toContain('never');
  });

  it('keeps refusals out of sight of callers without audit:read', async () => {
    const operator = await memberWithRole(t.url, owner, 'op@example.com', 'operator');
    expect((await call(t.url, 'GET', 'auditTrail', operator)).status).toBe(403);
    expect((await refusals(t)).at(-1)?.data).toMatchObject({
      target: 'auditTrail',
      code: 'FORBIDDEN',
    });
  });
});
