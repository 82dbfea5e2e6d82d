import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { anonymousContext, type RequestContext } from '../src/kernel/request-context.js';
import { DeploymentLogStore } from '../src/deployments/deployment-log-store.js';
import { DeploymentStateMachine } from '../src/deployments/deployment-state-machine.js';
import {
  ensureWebBundle,
  launchBrowser,
  logInThroughPage,
  screenshot,
  until,
} from './support/browser.js';
import { data, readyService, runToSuccess } from './support/deployments.js';
import { call, cookieAuth, logIn, PASSWORD } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';

/** Waits until the page's title (its h1) says `title`. */
const seeHeading = (page: Page, title: string) =>
  page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();

describe('the dashboard in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    origin = t.url;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('first run: / leads to the owner sign-up, which names a field it refuses, then the overview', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForURL(`${origin}/setup`);
    await seeHeading(page, 'Create the owner account');
    await screenshot(page, 'first-run');

    await page.getByLabel('Your name').fill('Olivia Owner');
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password', { exact: true }).fill('too short');
    await page.getByLabel('Password again').fill('too short');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    const password = page.getByLabel('Password', { exact: true });
    await page.getByText('password must be at least 12 characters').waitFor();
    await expect(password.getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'first-run-field-error');

    await password.fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.waitForURL(`${origin}/`);
    await seeHeading(page, 'Overview');
    await page.getByText('No deployments yet.').waitFor();
    await page.getByText('Nothing waits for approval.').waitFor();
    await page.getByText('none: up to date').waitFor();
    await expect(page.getByRole('banner').innerText()).resolves.toContain('Olivia Owner');
    await screenshot(page, 'overview-empty');

    // Opened afresh, the overview appears without moving: nothing shifts as its panels fill in
    // (the page-quality audit's layout-shift measure, read from the browser itself).
    await page.addInitScript({
      content: `window.shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) window.shifts.push(entry.value);
        }).observe({ type: 'layout-shift', buffered: true });`,
    });
    await page.goto(`${origin}/`);
    await page.getByText('No deployment finished in the last 30 days.').waitFor();
    const shifts = (await page.evaluate('window.shifts')) as number[];
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.01);

    // With the owner there, the first-run page says so instead of offering a second owner.
    await page.goto(`${origin}/setup`);
    await seeHeading(page, 'Slipway is set up');
    await page.close();
  });

  it('logs out, refuses a wrong password in words, and logs in again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/login`);
    await logInThroughPage(page, OWNER);
    await page.waitForURL(`${origin}/`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${origin}/login`);
    // The session is gone: the overview sends the browser back to the login.
    await page.goto(`${origin}/`);
    await page.waitForURL(`${origin}/login?returnTo=%2F`);

    await logInThroughPage(page, OWNER, 'not the password at all');
    await expect(page.getByRole('alert').innerText()).resolves.toContain(
      'Email or password is wrong',
    );
    await screenshot(page, 'login-refused');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${origin}/`);
    await seeHeading(page, 'Overview');
    await context.close();
  });

  it('sends a deep link without a session to the login, and back to it afterwards', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/deployments?status=failed`);
    await page.waitForURL(`${origin}/login?returnTo=%2Fdeployments%3Fstatus%3Dfailed`);
    await seeHeading(page, 'Log in');
    await screenshot(page, 'login');
    await logInThroughPage(page, OWNER);
    await page.waitForURL(`${origin}/deployments?status=failed`);
    await seeHeading(page, 'Deployments');
    await expect(page.getByLabel('Status').inputValue()).resolves.toBe('failed');
    await context.close();
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    '%2F%2Fevil.example',
    '%2F%5Cevil.example',
    'https%3A%2F%2Fevil.example',
    '/.//evil.example',
    'javascript:alert(1)',
  ])('stays on the site after a login with returnTo=%s', async (returnTo) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${origin}/login?returnTo=${returnTo}`);
    await logInThroughPage(page, OWNER);
    await page.waitForURL(`${origin}/`);
    await seeHeading(page, 'Overview');
    expect(new URL(page.url()).origin).toBe(origin);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
    await context.close();
  });

  describe('with deployments', () => {
    let succeededId: string;
    let failedId: string;

    beforeAll(async () => {
      const owner = cookieAuth(await logIn(t.url, OWNER));
      const { serviceId } = await readyService(t.url, owner);
      const trigger = async (tag: string) =>
        data<{ deploymentId: string }>(
          await call(t.url, 'POST', 'triggerDeploy', owner, {
            serviceId,
            imageTag: `ghcr.io/acme/api:${tag}`,
          }),
        ).deploymentId;
      succeededId = await trigger('1.0.0');
      await runToSuccess(t.app, succeededId, serviceId, 'ghcr.io/acme/api:1.0.0');
      failedId = await trigger('1.1.0');
      const machine = t.app.get(DeploymentStateMachine);
      const ctx: RequestContext = {
        ...anonymousContext('runner', 'runner', null),
        authMethod: 'system',
      };
      await machine.apply({ kind: 'start', deploymentId: failedId, runnerId: 'test' }, ctx);
      await machine.apply({ kind: 'stepStarted', deploymentId: failedId, step: 'pull' }, ctx);
      await t.app.get(DeploymentLogStore).append(
        [
          ['stdout', 'Pulling api (ghcr.io/acme/api:1.1.0)...'],
          ['stderr', 'Error response from daemon: manifest for ghcr.io/acme/api:1.1.0 not found'],
        ].map(([stream, text], i) => ({
          deploymentId: failedId,
          line: i + 1,
          step: 'pull',
          stream: stream as 'stdout' | 'stderr',
          text,
          at: new Date().toISOString(),
        })),
      );
      await machine.apply(
        {
          kind: 'stepFinished',
          deploymentId: failedId,
          step: 'pull',
          ok: false,
          detail: 'manifest unknown',
        },
        ctx,
      );
      await machine.apply(
        { kind: 'fail', deploymentId: failedId, reason: 'docker pull failed', step: 'pull' },
        ctx,
      );
      await trigger('1.2.0');
    });

    it('lists them, filters by status in the address, and opens one with its steps, log and masked secrets', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/login?returnTo=%2F`);
      await logInThroughPage(page, OWNER);
      await page.waitForURL(`${origin}/`);
      await page.getByRole('cell', { name: 'ghcr.io/acme/api:1.2.0', exact: true }).waitFor();
      await screenshot(page, 'overview');

      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Deployments' })
        .click();
      await page.waitForURL(`${origin}/deployments`);
      const rows = page.locator('tbody tr');
      await until(async () => (await rows.count()) === 3, 'three rows');
      await screenshot(page, 'deployments');
      await page.getByLabel('Status').selectOption('failed');
      await page.waitForURL(`${origin}/deployments?status=failed`);
      await until(async () => (await rows.count()) === 1, 'one row');
      await expect(rows.first().innerText()).resolves.toContain('1.1.0');
      await page.getByLabel('Status').selectOption('cancelled');
      await page.getByText('No cancelled deployments.').waitFor();

      await page.goto(`${origin}/deployments/${failedId}`);
      await page.getByText('Failed at pull: docker pull failed').waitFor();
      await page.getByText('manifest for ghcr.io/acme/api:1.1.0 not found').waitFor();
      await expect(page.getByRole('log').innerText()).resolves.toContain('Pulling api');
      const snapshot = await page.getByRole('region', { name: /Configuration/ }).innerText();
      expect(snapshot).toContain('DATABASE_URL');
      expect(snapshot).toContain('secret, not shown');
      expect(snapshot).toContain('LOG_LEVEL');
      expect(await page.content()).not.toContain('postgres://db/app');
      await screenshot(page, 'deployment-failed');

      await page.goto(`${origin}/deployments/${succeededId}`);
      await expect(page.getByRole('region', { name: 'Steps' }).innerText()).resolves.toMatch(
        /pull\s+Succeeded/,
      );
      await page.goto(`${origin}/deployments/00000000-0000-4000-8000-00000000dead`);
      await page.getByText('There is no deployment with this id.').waitFor();
      await context.close();
    });

    it('works on a phone-sized screen, with the keyboard', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(`${origin}/login?returnTo=%2F`);
      await logInThroughPage(page, OWNER);
      await page.waitForURL(`${origin}/`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.waitFor({ state: 'hidden' });
      await screenshot(page, 'phone-overview');
      // After the login the new page's title has the focus, not the login button that is gone.
      await expect(page.locator(':focus').innerText()).resolves.toBe('Overview');

      // Tab from the top of a page loaded afresh: the skip link, then the Menu button.
      await page.reload();
      await nav.waitFor({ state: 'hidden' });
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.keyboard.press('Tab');
      await expect(page.locator(':focus').innerText()).resolves.toBe('Skip to content');
      await page.keyboard.press('Tab');
      await expect(page.locator(':focus').innerText()).resolves.toBe('Menu');
      await page.keyboard.press('Enter');
      await nav.waitFor({ state: 'visible' });
      await expect(
        page.getByRole('button', { name: 'Close' }).getAttribute('aria-expanded'),
      ).resolves.toBe('true');
      await screenshot(page, 'phone-menu');
      await page.keyboard.press('Escape');
      await nav.waitFor({ state: 'hidden' });

      await page.keyboard.press('Enter');
      await nav.getByRole('link', { name: 'Deployments' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/deployments`);
      // The navigation folds again and the new page's title has the focus.
      await nav.waitFor({ state: 'hidden' });
      await expect(page.locator('h1:focus').innerText()).resolves.toBe('Deployments');
      await context.close();
    });
  });
});
