import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { AUTH_LIMITS } from '../src/identity/login/throttle.js';
import { PASSWORD, signUp } from './support/identity.js';
import { TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('throttling of the auth endpoints (injected clock)', () => {
  const clock = new TestClock();
  let t: TestApp;
  const login = (email: string, password: string) =>
    request(t.url).post('/api/auth/login').send({ email, password });

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    await signUp(t.url, 'target@example.com');
  });
  afterAll(async () => t.close());

  it('locks an account after its failures, without saying whether the password was right', async () => {
    // Frozen: the two refusals' Retry-After must not differ by a second boundary crossed
    // between them on a slow machine.
    clock.freeze();
    const { max, windowMs } = AUTH_LIMITS.loginFailuresPerAccountAddress;
    for (let i = 0; i < max; i++)
      expect((await login('target@example.com', `wrong ${i} wrong`)).status).toBe(401);
    const wrong = await login('target@example.com', 'still the wrong one');
    const right = await login('target@example.com', PASSWORD);
    for (const res of [wrong, right]) {
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const strip = (b: { error: { data: Record<string, unknown> } }) => ({
      ...b.error,
      data: { ...b.error.data, requestId: null },
    });
    clock.thaw();
    expect(strip(right.body)).toEqual(strip(wrong.body));
    clock.advance(windowMs + 1000);
    expect((await login('target@example.com', PASSWORD)).status).toBe(200);
  });

  it('limits login attempts per client address, and resets after the window', async () => {
    const { max, windowMs } = AUTH_LIMITS.loginPerAddress;
    clock.advance(windowMs + 1000);
    for (let i = 0; i < max; i++)
      expect((await login(`nobody${i}@example.com`, 'whatever it is')).status).toBe(401);
    const over = await login('someone-else@example.com', 'whatever it is');
    expect([over.status, over.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    clock.advance(windowMs + 1000);
    expect((await login('target@example.com', PASSWORD)).status).toBe(200);
  });

  it('limits reset requests per email with the same answer for any email', async () => {
    const { max, windowMs } = AUTH_LIMITS.resetRequestPerEmail;
    const ask = (email: string) =>
      request(t.url).post('/api/auth/request-password-reset').send({ email });
    for (let i = 0; i < max; i++) expect((await ask('ghost@example.com')).status).toBe(200);
    expect((await ask('ghost@example.com')).status).toBe(429);
    expect((await ask('other@example.com')).status).toBe(200);
    clock.advance(windowMs + 1000);
    expect((await ask('ghost@example.com')).status).toBe(200);
  });

  it('limits reset attempts and second-factor attempts per client address', async () => {
    const reset = AUTH_LIMITS.resetPerAddress;
    const tryReset = () =>
      request(t.url)
        .post('/api/auth/reset-password')
        .send({ token: 'x'.repeat(43), newPassword: 'a long enough passphrase' });
    for (let i = 0; i < reset.max; i++) expect((await tryReset()).status).toBe(400);
    expect((await tryReset()).status).toBe(429);
    const verify = AUTH_LIMITS.verifyPerAddress;
    const tryVerify = () =>
      request(t.url)
        .post('/api/auth/login/verify')
        .send({ challenge: 'c'.repeat(43), totpCode: '123456' });
    for (let i = 0; i < verify.max; i++) expect((await tryVerify()).status).toBe(401);
    expect((await tryVerify()).status).toBe(429);
    clock.advance(Math.max(reset.windowMs, verify.windowMs) + 1000);
    expect((await tryVerify()).status).toBe(401);
  });
});
