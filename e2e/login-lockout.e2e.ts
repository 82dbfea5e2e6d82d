import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { simpleParser } from 'mailparser';
import request from 'supertest';
import { AUTH_LIMITS, KNOWN_SOURCE_BACKOFF } from '../src/identity/login/throttle.js';
import { PASSWORD, sessionCookie, signUp } from './support/identity.js';
import { codeAt, enrol } from './support/mfa.js';
import { MINUTE, TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const GLOBAL = AUTH_LIMITS.loginFailuresPerAccount;

/** Attackers' addresses: each used for one attempt only, so per-address limits never apply. */
let nextAttacker = 0;
const attacker = () => `198.51.${Math.floor(nextAttacker / 250)}.${(nextAttacker++ % 250) + 1}`;

function deviceCookie(header: string | string[] | undefined): string {
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const found = all.find((c) => c.startsWith('slipway_device='));
  if (!found) throw new Error('no device cookie set');
  return found.split(';')[0];
}

describe('login limits: brute force stays out, the owner does not get locked out', () => {
  const clock = new TestClock();
  let t: TestApp;

  const login = (email: string, password: string, from: string, cookie?: string) => {
    const req = request(t.url).post('/api/auth/login').set('X-Forwarded-For', from);
    if (cookie) req.set('Cookie', cookie);
    return req.send({ email, password });
  };
  /** Spends the account's budget for unknown addresses, one wrong password per address. */
  const hammer = async (email: string, attempts = 3 * GLOBAL.max) => {
    const statuses: number[] = [];
    for (let i = 0; i < attempts; i++) {
      statuses.push((await login(email, `guess number ${i}`, attacker())).status);
    }
    return statuses;
  };
  const nextWindow = () => clock.advance(GLOBAL.windowMs + MINUTE);

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock, config: { trustProxy: 1 } });
    for (const name of ['owner', 'burst', 'many', 'backoff', 'reset', 'mfa']) {
      await signUp(t.url, `${name}@example.com`);
    }
  });
  afterAll(async () => t.close());

  it('checks and counts atomically: 40 concurrent guesses from 40 addresses, the right one last', async () => {
    const attempts = Array.from({ length: 40 }, (_, i) =>
      login('burst@example.com', i === 39 ? PASSWORD : `wrong guess ${i}`, attacker()),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses).not.toContain(200);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(GLOBAL.max);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - GLOBAL.max);
  });

  it('stops brute force from many addresses, and from a new address even with the password', async () => {
    const statuses = await hammer('many@example.com', 60);
    expect(statuses.filter((s) => s === 401).length).toBe(GLOBAL.max);
    expect(statuses.slice(GLOBAL.max).every((s) => s === 429)).toBe(true);
    const right = await login('many@example.com', PASSWORD, attacker());
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(right.headers['set-cookie']).toBeUndefined();
    nextWindow();
    expect((await login('many@example.com', PASSWORD, attacker())).status).toBe(200);
  });

  it('lets the owner in from a known address and from a known device, window after window', async () => {
    const home = '203.0.113.5';
    expect((await login('owner@example.com', PASSWORD, home)).status).toBe(200);
    const browser = await login('owner@example.com', PASSWORD, '203.0.113.6');
    const device = deviceCookie(browser.headers['set-cookie']);
    for (let round = 0; round < 3; round++) {
      const statuses = await hammer('owner@example.com');
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      // The owner, meanwhile: from home (the CLI, no cookie), and from a new network with the
      // browser that signed in before.
      expect((await login('owner@example.com', PASSWORD, home)).status).toBe(200);
      const travelling = `192.0.2.${round + 10}`;
      expect((await login('owner@example.com', PASSWORD, travelling, device)).status).toBe(200);
      // Neither opened the door for the attacker.
      expect((await login('owner@example.com', PASSWORD, attacker())).status).toBe(429);
      nextWindow();
    }
  });

  it('does not take a device cookie of another account, or a forged one', async () => {
    const other = await login('many@example.com', PASSWORD, '203.0.113.9');
    const othersDevice = deviceCookie(other.headers['set-cookie']);
    await hammer('owner@example.com');
    const [issued, id] = othersDevice.split('=')[1].split('.');
    const forged = `slipway_device=${issued}.${id}.${'0'.repeat(64)}`;
    for (const cookie of [othersDevice, forged]) {
      expect((await login('owner@example.com', PASSWORD, attacker(), cookie)).status).toBe(429);
    }
    nextWindow();
  });

  it('slows a known address down with growing waits instead of locking it', async () => {
    const home = '203.0.113.20';
    expect((await login('backoff@example.com', PASSWORD, home)).status).toBe(200);
    const { freeFailures, firstDelayMs } = KNOWN_SOURCE_BACKOFF;
    for (let i = 0; i < freeFailures; i++) {
      expect((await login('backoff@example.com', 'wrong password!', home)).status).toBe(401);
    }
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const refused = await login('backoff@example.com', PASSWORD, home);
      expect(refused.status).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      clock.advance(waits[i] * 1000);
      expect((await login('backoff@example.com', 'wrong password!', home)).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4].map((n) => (n * firstDelayMs) / 1000));
    clock.advance(8 * firstDelayMs);
    expect((await login('backoff@example.com', PASSWORD, home)).status).toBe(200);
  });

  it('clears the lock when the password is reset, and trusts the address that reset it', async () => {
    await hammer('reset@example.com');
    expect((await login('reset@example.com', PASSWORD, '203.0.113.30')).status).toBe(429);
    await request(t.url)
      .post('/api/auth/request-password-reset')
      .set('X-Forwarded-For', '203.0.113.30')
      .send({ email: 'reset@example.com' });
    const token = await resetTokenFrom(t.config.dataDir);
    const reset = await request(t.url)
      .post('/api/auth/reset-password')
      .set('X-Forwarded-For', '203.0.113.30')
      .send({ token, newPassword: 'a brand new passphrase' });
    expect(reset.status).toBe(200);
    expect((await login('reset@example.com', 'a brand new passphrase', attacker())).status).toBe(
      200,
    );
    // The attacker can spend the budget again, but the resetting address stays known.
    await hammer('reset@example.com');
    expect(
      (await login('reset@example.com', 'a brand new passphrase', '203.0.113.30')).status,
    ).toBe(200);
    nextWindow();
  });

  it('believes only the address the proxy appended, not the entries a client wrote before it', async () => {
    const { max } = AUTH_LIMITS.loginPerAddress;
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++) {
      // What a client sends through a proxy that appends: its own claim first, the truth last.
      statuses.push(
        (await login(`nobody-${i}@example.com`, 'guess', `${attacker()}, 203.0.113.77`)).status,
      );
    }
    expect(statuses.slice(0, max).every((s) => s === 401)).toBe(true);
    expect(statuses[max]).toBe(429);
    nextWindow();
  });

  it('clears the lock when a login passes the second factor', async () => {
    const home = '203.0.113.40';
    const first = await login('mfa@example.com', PASSWORD, home);
    const { secret } = await enrol(t.url, sessionCookie(first.headers['set-cookie']), clock);
    await hammer('mfa@example.com');
    expect((await login('mfa@example.com', PASSWORD, attacker())).status).toBe(429);
    const challenge = await login('mfa@example.com', PASSWORD, home);
    expect(challenge.body.status).toBe('mfa_required');
    const verified = await request(t.url)
      .post('/api/auth/login/verify')
      .set('X-Forwarded-For', home)
      .send({ challenge: challenge.body.challenge, totpCode: await codeAt(secret, clock) });
    expect(verified.status).toBe(200);
    // Cleared: a new address gets to the second step again.
    const fresh = await login('mfa@example.com', PASSWORD, '192.0.2.200');
    expect([fresh.status, fresh.body.status]).toEqual([200, 'mfa_required']);
  });
});

async function resetTokenFrom(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'mail');
  for (let i = 0; i < 200; i++) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    } catch {
      // not written yet
    }
    for (const file of files) {
      const mail = await simpleParser(readFileSync(join(dir, file)));
      const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
      if (mail.to && JSON.stringify(mail.to).includes('reset@example.com') && token) return token;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no reset mail');
}
