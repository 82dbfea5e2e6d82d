import { generate } from 'otplib';
import request from 'supertest';
import { PASSWORD, call, cookieAuth, sessionCookie } from './identity.js';
import type { TestClock } from './test-clock.js';

/** A code as the user's authenticator would show it at the app's (test) time. */
export function codeAt(secret: string, clock: TestClock): Promise<string> {
  return generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
}

/**
 * A code the app refuses at its (test) time: none of the codes of the steps it accepts (the
 * current one and one either side), so a fixed guess cannot happen to be right.
 */
export async function wrongCodeAt(secret: string, clock: TestClock): Promise<string> {
  const now = Math.floor(clock.now().getTime() / 1000);
  const accepted = await Promise.all(
    [-30, 0, 30].map((offset) => generate({ secret, epoch: now + offset })),
  );
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!accepted.includes(code)) return code;
  }
}

export interface Enrolled {
  secret: string;
  recoveryCodes: string[];
}

/** Enrols the cookie's user; moves the clock one TOTP step on so the next code is fresh. */
export async function enrol(url: string, cookie: string, clock: TestClock): Promise<Enrolled> {
  const start = await call(url, 'POST', 'startMfaEnrollment', cookieAuth(cookie), {
    password: PASSWORD,
  });
  if (start.status !== 200) throw new Error(`start failed: ${JSON.stringify(start.body)}`);
  const { secret } = start.body.result.data.json;
  const confirm = await call(url, 'POST', 'confirmMfaEnrollment', cookieAuth(cookie), {
    code: await codeAt(secret, clock),
  });
  if (confirm.status !== 200) throw new Error(`confirm failed: ${JSON.stringify(confirm.body)}`);
  clock.advance(30_000);
  return { secret, recoveryCodes: confirm.body.result.data.json.recoveryCodes };
}

/** Password, then the TOTP code: an MFA-verified session. */
export async function mfaLogin(
  url: string,
  email: string,
  secret: string,
  clock: TestClock,
): Promise<string> {
  const first = await request(url).post('/api/auth/login').send({ email, password: PASSWORD });
  if (first.body.status !== 'mfa_required')
    throw new Error(`expected a challenge: ${JSON.stringify(first.body)}`);
  const verify = await request(url)
    .post('/api/auth/login/verify')
    .send({ challenge: first.body.challenge, totpCode: await codeAt(secret, clock) });
  if (verify.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verify.body)}`);
  clock.advance(30_000);
  return sessionCookie(verify.headers['set-cookie']);
}
