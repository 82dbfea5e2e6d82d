import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { PASSWORD, call, cookieAuth, sessionCookie, signUp } from './support/identity.js';
import { codeAt, mfaLogin, wrongCodeAt, type Enrolled } from './support/mfa.js';
import { MINUTE, TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('TOTP and recovery codes over HTTP, with codes computed by otplib', () => {
  const clock = new TestClock();
  let t: TestApp;
  let cookie: string;
  let enrolled: Enrolled;
  const email = 'mfa@example.com';

  const login = () => request(t.url).post('/api/auth/login').send({ email, password: PASSWORD });
  const verify = (challenge: string, codes: { totpCode?: string; recoveryCode?: string }) =>
    request(t.url)
      .post('/api/auth/login/verify')
      .send({ challenge, ...codes });

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    cookie = (await signUp(t.url, email)).cookie;
  });
  afterAll(async () => t.close());

  it('enrols: secret and otpauth URI once, then 10 recovery codes once', async () => {
    const start = await call(t.url, 'POST', 'startMfaEnrollment', cookieAuth(cookie), {
      password: PASSWORD,
    });
    expect(start.body.result.data.json.otpauthUri).toMatch(/^otpauth:\/\/totp\/.*issuer=Slipway/);
    const wrongPassword = await call(t.url, 'POST', 'startMfaEnrollment', cookieAuth(cookie), {
      password: 'nope nope nope',
    });
    expect(wrongPassword.status).toBe(400);
    const { secret } = start.body.result.data.json;
    const wrongCode = await call(t.url, 'POST', 'confirmMfaEnrollment', cookieAuth(cookie), {
      code: await wrongCodeAt(secret, clock),
    });
    expect(wrongCode.status).toBe(400);
    const confirm = await call(t.url, 'POST', 'confirmMfaEnrollment', cookieAuth(cookie), {
      code: await codeAt(secret, clock),
    });
    expect(confirm.status).toBe(200);
    enrolled = { secret, recoveryCodes: confirm.body.result.data.json.recoveryCodes };
    expect(enrolled.recoveryCodes).toHaveLength(10);
    expect(new Set(enrolled.recoveryCodes).size).toBe(10);
    const status = await call(t.url, 'GET', 'accountSecurityStatus', cookieAuth(cookie));
    expect(status.body.result.data.json.caller).toMatchObject({
      enrolled: true,
      recoveryCodesRemaining: 10,
      sessionMfaVerified: false,
    });
    expect(JSON.stringify(status.body)).not.toContain(secret);
    clock.advance(30_000);
  });

  it('logs out; login answers a challenge and no session; TOTP verify sets the session', async () => {
    await request(t.url).post('/api/auth/logout').set('Cookie', cookie).send({});
    const first = await login();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'mfa_required', challenge: expect.any(String) });
    expect(first.headers['set-cookie']).toBeUndefined();
    const code = await codeAt(enrolled.secret, clock);
    const ok = await verify(first.body.challenge, { totpCode: code });
    expect(ok.body).toEqual({ status: 'authenticated' });
    cookie = sessionCookie(ok.headers['set-cookie']);
    const viewer = await call(t.url, 'GET', 'viewer', cookieAuth(cookie));
    expect(viewer.body.result.data.json.session.mfaVerified).toBe(true);

    const replayChallenge = (await login()).body.challenge;
    const replay = await verify(replayChallenge, { totpCode: code });
    expect([replay.status, replay.body.error.code]).toEqual([401, 'INVALID_CREDENTIALS']);
    clock.advance(30_000);
  });

  it('logs in with a recovery code once; its reuse fails', async () => {
    const [recovery] = enrolled.recoveryCodes;
    const ok = await verify((await login()).body.challenge, {
      recoveryCode: recovery.toUpperCase(),
    });
    expect(ok.status).toBe(200);
    const again = await verify((await login()).body.challenge, { recoveryCode: recovery });
    expect([again.status, again.body.error.code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const status = await call(t.url, 'GET', 'accountSecurityStatus', cookieAuth(cookie));
    expect(status.body.result.data.json.caller.recoveryCodesRemaining).toBe(9);
  });

  it('rotates recovery codes: the old set dies, the new one works', async () => {
    const rotated = await call(t.url, 'POST', 'rotateRecoveryCodes', cookieAuth(cookie), {
      code: await codeAt(enrolled.secret, clock),
    });
    expect(rotated.status).toBe(200);
    clock.advance(30_000);
    const fresh: string[] = rotated.body.result.data.json.recoveryCodes;
    const old = await verify((await login()).body.challenge, {
      recoveryCode: enrolled.recoveryCodes[1],
    });
    expect(old.status).toBe(401);
    const ok = await verify((await login()).body.challenge, { recoveryCode: fresh[0] });
    expect(ok.status).toBe(200);
  });

  it('kills a challenge after 5 wrong codes, and after 5 minutes', async () => {
    const challenge = (await login()).body.challenge;
    for (let i = 0; i < 5; i++)
      expect(
        (await verify(challenge, { totpCode: await wrongCodeAt(enrolled.secret, clock) })).status,
      ).toBe(401);
    const dead = await verify(challenge, { totpCode: await codeAt(enrolled.secret, clock) });
    expect(dead.status).toBe(401);

    const slow = (await login()).body.challenge;
    clock.advance(5 * MINUTE + 1000);
    const late = await verify(slow, { totpCode: await codeAt(enrolled.secret, clock) });
    expect(late.status).toBe(401);
    const both = await verify((await login()).body.challenge, {
      totpCode: '123456',
      recoveryCode: 'abcde-fghjk',
    });
    expect(both.status).toBe(400);
  });

  it('limits guesses from a session: codes and passwords per account, then 429', async () => {
    clock.advance(16 * MINUTE); // past any earlier test's failures
    const session = cookieAuth(await mfaLogin(t.url, email, enrolled.secret, clock));
    const rotate = async (code: string) =>
      call(t.url, 'POST', 'rotateRecoveryCodes', session, { code });
    for (let i = 0; i < 10; i++)
      expect((await rotate(await wrongCodeAt(enrolled.secret, clock))).status).toBe(400);
    const limited = await rotate(await codeAt(enrolled.secret, clock));
    expect([limited.status, limited.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    // The same account's login code is held to the same count.
    const challenge = (await login()).body.challenge as string;
    const atLogin = await verify(challenge, { totpCode: await codeAt(enrolled.secret, clock) });
    expect(atLogin.status).toBe(429);
    const enrol = async (password: string) =>
      call(t.url, 'POST', 'startMfaEnrollment', session, { password });
    for (let i = 0; i < 5; i++) expect((await enrol('not the password')).status).toBe(400);
    expect((await enrol(PASSWORD)).status).toBe(429);
    clock.advance(15 * MINUTE + 1000);
    expect((await rotate(await codeAt(enrolled.secret, clock))).status).toBe(200);
    clock.advance(30_000);
  });

  it('keeps secrets and recovery codes out of the event store', async () => {
    const events = t.app.get<EventStore>(EVENT_STORE);
    const all = JSON.stringify(await events.readAll(0n, 10_000), (_k, v) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(all).not.toContain(enrolled.secret);
    for (const code of enrolled.recoveryCodes) expect(all).not.toContain(code);
    expect(all).toContain('MfaEnrolled');
  });

  it('disables MFA with password and code; login is one step again', async () => {
    const fresh = await mfaLogin(t.url, email, enrolled.secret, clock);
    const off = await call(t.url, 'POST', 'disableMfa', cookieAuth(fresh), {
      password: PASSWORD,
      code: await codeAt(enrolled.secret, clock),
    });
    expect(off.status).toBe(200);
    expect((await login()).body).toEqual({ status: 'authenticated' });
  });

  it('refuses MFA management with an API token', async () => {
    const token = await call(t.url, 'POST', 'createToken', cookieAuth(cookie), {
      tokenName: 'x',
      scopes: ['members:read'],
    });
    const res = await call(
      t.url,
      'POST',
      'startMfaEnrollment',
      { Authorization: `Bearer ${token.body.result.data.json.token}` },
      { password: PASSWORD },
    );
    expect([res.status, res.body.error.code, res.body.error.data.rule]).toEqual([
      403,
      'FORBIDDEN',
      'session-only',
    ]);
  });
});
