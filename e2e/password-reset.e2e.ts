import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { simpleParser } from 'mailparser';
import request from 'supertest';
import { PASSWORD, call, cookieAuth, signUp } from './support/identity.js';
import { startSmtp, type TestSmtp } from './support/smtp.js';
import { MINUTE, TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const linkIn = (text: string) =>
  /https?:\/\/\S+\/api\/auth\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

describe('password reset against a real SMTP server', () => {
  const clock = new TestClock();
  let smtp: TestSmtp;
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({
      notes: false,
      clock,
      config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, publicUrl: 'https://slipway.example' },
    });
    cookie = (await signUp(t.url, 'forgetful@example.com')).cookie;
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('mails a single-use link; it works once, then redirects with INVALID_TOKEN', async () => {
    const asked = await request(t.url)
      .post('/api/auth/request-password-reset')
      .send({ email: 'Forgetful@Example.com' });
    expect(asked.status).toBe(200);
    const mail = await waitFor(
      () => smtp.inbox.find((m) => m.to.includes('forgetful@example.com')),
      'the reset mail',
    );
    expect(mail.subject).toMatch(/Reset your Slipway password/);
    const token = linkIn(mail.text)!;
    expect(mail.text).toContain(`https://slipway.example/api/auth/reset-password?token=${token}`);

    const follow = await request(t.url).get(`/api/auth/reset-password?token=${token}`);
    expect(follow.status).toBe(302);
    expect(follow.headers.location).toBe(`/reset-password?token=${token}`);

    const tooShort = await request(t.url)
      .post('/api/auth/reset-password')
      .send({ token, newPassword: 'short' });
    expect(tooShort.status).toBe(400);
    const reset = await request(t.url)
      .post('/api/auth/reset-password')
      .send({ token, newPassword: 'a brand new passphrase' });
    expect(reset.body).toEqual({ status: 'password_changed' });

    const again = await request(t.url).get(`/api/auth/reset-password?token=${token}`);
    expect(again.headers.location).toBe('/reset-password?error=INVALID_TOKEN');
    const reuse = await request(t.url)
      .post('/api/auth/reset-password')
      .send({ token, newPassword: 'yet another passphrase' });
    expect(reuse.status).toBe(400);

    expect((await call(t.url, 'GET', 'viewer', cookieAuth(cookie))).body.error.code).toBe(
      'SESSION_EXPIRED',
    );
    const oldLogin = await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'forgetful@example.com', password: PASSWORD });
    expect(oldLogin.status).toBe(401);
    const newLogin = await request(t.url)
      .post('/api/auth/login')
      .send({ email: 'forgetful@example.com', password: 'a brand new passphrase' });
    expect(newLogin.status).toBe(200);
  });

  it('answers an unknown email identically, and mails nothing', async () => {
    const before = smtp.inbox.length;
    const known = await request(t.url)
      .post('/api/auth/request-password-reset')
      .send({ email: 'forgetful@example.com' });
    const unknown = await request(t.url)
      .post('/api/auth/request-password-reset')
      .send({ email: 'nobody@example.com' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await waitFor(
      () => (smtp.inbox.length > before ? true : undefined),
      'the known address’s mail',
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.inbox.filter((m) => m.to.includes('nobody@example.com'))).toEqual([]);
  });

  it('expires a link after 30 minutes', async () => {
    const before = smtp.inbox.length;
    await request(t.url)
      .post('/api/auth/request-password-reset')
      .send({ email: 'forgetful@example.com' });
    const mail = await waitFor(() => smtp.inbox[before], 'a new mail');
    const token = linkIn(mail.text)!;
    clock.advance(31 * MINUTE);
    expect(
      (await request(t.url).get(`/api/auth/reset-password?token=${token}`)).headers.location,
    ).toBe('/reset-password?error=INVALID_TOKEN');
    expect(
      (
        await request(t.url)
          .post('/api/auth/reset-password')
          .send({ token, newPassword: 'too late passphrase' })
      ).status,
    ).toBe(400);
    expect(
      (await request(t.url).get('/api/auth/reset-password?token=garbage')).headers.location,
    ).toBe('/reset-password?error=INVALID_TOKEN');
  });
  it('kills every older link once a reset sets the password; a link asked for after works', async () => {
    const link = async () => {
      const before = smtp.inbox.length;
      await request(t.url)
        .post('/api/auth/request-password-reset')
        .send({ email: 'forgetful@example.com' });
      return linkIn((await waitFor(() => smtp.inbox[before], 'a new mail')).text)!;
    };
    const reset = (token: string, newPassword: string) =>
      request(t.url).post('/api/auth/reset-password').send({ token, newPassword });
    clock.advance(61 * MINUTE); // a fresh hour of reset requests for this address
    const first = await link();
    const second = await link();
    clock.advance(1000);
    expect((await reset(first, 'the owner resets it')).status).toBe(200);
    // The other link, seen once in the mailbox, does not take the account back.
    expect((await reset(second, 'someone else sets it')).status).toBe(400);
    clock.advance(1000);
    expect((await reset(await link(), 'asked for afterwards')).status).toBe(200);
  });
});

describe('password reset without SMTP', () => {
  it('writes the message as an .eml file under the data directory', async () => {
    const t = await startTestApp({ notes: false });
    try {
      await signUp(t.url, 'local@example.com');
      await request(t.url)
        .post('/api/auth/request-password-reset')
        .send({ email: 'local@example.com' });
      const dir = join(t.config.dataDir, 'mail');
      const file = await waitFor(() => {
        try {
          return readdirSync(dir).find((f) => f.endsWith('.eml'));
        } catch {
          return undefined;
        }
      }, 'an .eml file');
      const parsed = await simpleParser(readFileSync(join(dir, file)));
      expect(parsed.subject).toMatch(/Reset your Slipway password/);
      expect(linkIn(parsed.text ?? '')).toBeDefined();
    } finally {
      await t.close();
    }
  });
});
