import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { ensureWebBundle, launchBrowser } from './support/browser.js';
import { PASSWORD, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * DNS rebinding in a real browser: the attacker's name resolves to this machine's loopback (the
 * browser's resolver is told so), so its page and Slipway are one origin to the browser, and
 * the page's script signs up, the way it would on a fresh instance nobody has claimed yet.
 */
describe('a fresh service against a page on a name rebound to loopback', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false, config: { openSignup: false } });
    browser = await launchBrowser(['--host-resolver-rules=MAP attacker.example 127.0.0.1']);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('serves the page nothing and refuses its sign-up; the real owner signs up after', async () => {
    const page = await browser.newPage();
    const rebound = `http://attacker.example:${new URL(t.url).port}`;
    const landing = await page.goto(`${rebound}/`);
    expect(landing?.status()).toBe(403);
    // The page's own script: a same-origin request, as far as the browser can tell.
    const signUpAnswer = await page.evaluate(
      async ({ password }) => {
        const res = await fetch('/api/auth/sign-up', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'mallory@example.com', password, name: 'Mallory' }),
        });
        return { status: res.status, body: (await res.json()) as unknown };
      },
      { password: PASSWORD },
    );
    expect(signUpAnswer).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN', data: { reason: 'HOST_NOT_ALLOWED' } } },
    });
    await page.close();
    expect((await signUp(t.url, 'owner@example.com')).role).toBe('owner');
  });
});
