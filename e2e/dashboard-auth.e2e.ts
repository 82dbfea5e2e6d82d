import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBundle, launchBrowser, screenshot, until } from './support/browser.js';
import { call, cookieAuth, PASSWORD, signUp } from './support/identity.js';
import { codeAt, wrongCodeAt } from './support/mfa.js';
import { startSmtp, type TestSmtp } from './support/smtp.js';
import { TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const seeHeading = (page: Page, title: string) =>
  page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();

async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('the dashboard: password reset by mail, two-factor enrolment and login', () => {
  const clock = new TestClock();
  let smtp: TestSmtp;
  let t: TestApp;
  let browser: Browser;
  let owner: Record<string, string>;
  /** A code as the user's authenticator would show it at the app's time. */
  const codeFor = (secret: string) => codeAt(secret, clock);

  beforeAll(async () => {
    ensureWebBundle();
    smtp = await startSmtp();
    t = await startTestApp({
      notes: false,
      clock,
      config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, publicUrl: 'https://slipway.example' },
    });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com', 'Olivia Owner')).cookie);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp.stop();
  });

  it('resets a forgotten password through the mailed link, which then no longer works', async () => {
    await signUp(t.url, 'forgetful@example.com', 'Fergus');
    const page = await browser.newPage();
    await page.goto(`${t.url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await seeHeading(page, 'Reset your password');
    await page.getByLabel('Email').fill('forgetful@example.com');
    await page.getByRole('button', { name: 'Send a reset link' }).click();
    await page.getByText('If an account uses this email, a reset link is on its way.').waitFor();
    await screenshot(page, 'forgot-password');

    let mail: { text: string } | undefined;
    await until(async () => {
      mail = smtp.inbox.find((m) => m.to.includes('forgetful@example.com'));
      return mail !== undefined;
    }, 'the reset mail');
    // The mail names the public URL; the same path on the test server is the same link.
    const link = new URL(/https:\/\/slipway\.example\/\S+/.exec(mail!.text)![0]);
    expect(link.pathname).toBe('/api/auth/reset-password');
    await page.goto(`${t.url}${link.pathname}${link.search}`);
    await page.waitForURL(`${t.url}/reset-password?token=${link.searchParams.get('token')}`);
    await seeHeading(page, 'Set a new password');

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('newPassword must be at least 12 characters').waitFor();
    await screenshot(page, 'reset-password-field-error');
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('New password again').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await seeHeading(page, 'Password changed');
    await page.getByRole('link', { name: 'Log in' }).click();
    await logIn(page, 'forgetful@example.com', 'a brand new passphrase');
    await page.waitForURL(`${t.url}/`);
    await seeHeading(page, 'Overview');

    // The link worked once: now it explains itself and offers a new one.
    await page.goto(`${t.url}${link.pathname}${link.search}`);
    await page.waitForURL(`${t.url}/reset-password?error=INVALID_TOKEN`);
    await seeHeading(page, 'This reset link does not work');
    await page.getByText('was used already, or is more than 30 minutes old').waitFor();
    await screenshot(page, 'reset-password-invalid');
    const before = smtp.inbox.length;
    await page.getByLabel('Email').fill('forgetful@example.com');
    await page.getByRole('button', { name: 'Send a new link' }).click();
    await page.getByText('a reset link is on its way').waitFor();
    await until(async () => smtp.inbox.length > before, 'the second mail');
    await page.close();
  });

  describe('two-factor authentication', () => {
    let secret: string;
    let recoveryCodes: string[];

    it('enrols from the dashboard: QR code and key, a code, ten recovery codes to download', async () => {
      await signUp(t.url, 'careful@example.com', 'Carla');
      const page = await browser.newPage({ acceptDownloads: true });
      await page.goto(`${t.url}/login`);
      await logIn(page, 'careful@example.com');
      await seeHeading(page, 'Overview');
      await page.getByRole('link', { name: 'Two-factor authentication' }).click();
      await seeHeading(page, 'Turn on two-factor authentication');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();

      const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
      await qr.waitFor();
      await expect(qr.getAttribute('src')).resolves.toMatch(/^data:image\/png;base64,/);
      secret = (await page.getByLabel('Secret key').innerText()).replace(/\s+/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      await screenshot(page, 'mfa-enrol');

      await page.getByLabel('Code').fill(await wrongCodeAt(secret, clock));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Code').fill(await codeFor(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await seeHeading(page, 'Save your recovery codes');
      recoveryCodes = await page
        .getByRole('list', { name: 'Recovery codes' })
        .getByRole('listitem')
        .allInnerTexts();
      expect(recoveryCodes).toHaveLength(10);
      await screenshot(page, 'mfa-recovery-codes');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download as a text file' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('slipway-recovery-codes.txt');
      const text = readFileSync((await download.path())!, 'utf8');
      for (const code of recoveryCodes) expect(text).toContain(code);

      const next = page.getByRole('button', { name: 'Continue' });
      await expect(next.isDisabled()).resolves.toBe(true);
      await page.getByLabel('I have saved these codes').check();
      await next.click();
      await seeHeading(page, 'Overview');
      clock.advance(30_000);
      await page.close();
    });

    it('logs in with a code from the authenticator, then with a recovery code', async () => {
      const page = await browser.newPage();
      await page.goto(`${t.url}/deployments`);
      await page.waitForURL(`${t.url}/login?returnTo=%2Fdeployments`);
      await logIn(page, 'careful@example.com');
      await seeHeading(page, 'Two-factor authentication');
      await page.getByLabel('Code').fill(await wrongCodeAt(secret, clock));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('That code was not accepted').waitFor();
      await screenshot(page, 'login-totp');
      await page.getByLabel('Code').fill(await codeFor(secret));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(`${t.url}/deployments`);
      await seeHeading(page, 'Deployments');
      clock.advance(30_000);

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${t.url}/login`);
      await logIn(page, 'careful@example.com');
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await seeHeading(page, 'Overview');

      // A recovery code works once.
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${t.url}/login`);
      await logIn(page, 'careful@example.com');
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('That recovery code was not accepted').waitFor();
      await page.close();
    });

    it('sends a member the team policy holds back (MFA_REQUIRED) to enrol, then to log in with a code', async () => {
      await signUp(t.url, 'newcomer@example.com', 'Nina');
      const set = await call(t.url, 'POST', 'updateAccountSecurityPolicy', owner, {
        policy: 'all',
      });
      expect(set.status).toBe(200);

      const page = await browser.newPage();
      await page.goto(`${t.url}/login`);
      await logIn(page, 'newcomer@example.com');
      await page.waitForURL(`${t.url}/account/mfa?returnTo=%2F`);
      await seeHeading(page, 'Turn on two-factor authentication');
      await page.getByText('Your team requires two-factor authentication').waitFor();
      await screenshot(page, 'mfa-required');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();
      const key = (await page.getByLabel('Secret key').innerText()).replace(/\s+/g, '');
      await page.getByLabel('Code').fill(await codeFor(key));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await seeHeading(page, 'Save your recovery codes');
      clock.advance(30_000);
      // This session began before the enrolment, so the policy wants a new one, with a code.
      await page.getByLabel('I have saved these codes').check();
      await page.getByRole('button', { name: 'Log in again' }).click();
      await page.waitForURL(`${t.url}/login?returnTo=%2F`);
      await logIn(page, 'newcomer@example.com');
      await page.getByLabel('Code').fill(await codeFor(key));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(`${t.url}/`);
      await seeHeading(page, 'Overview');
      await page.getByText('No deployments yet.').waitFor();
      await page.close();
    });
  });
});
