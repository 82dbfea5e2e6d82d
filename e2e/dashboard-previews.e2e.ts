import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { ensureWebBundle, launchBrowser, logInThroughPage, screenshot } from './support/browser.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { openPreview } from './support/previews.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';

/** A service's pull-request previews on its card, in a real browser: approved, then closed. */
describe('the dashboard: pull request previews', () => {
  let t: TestApp;
  let browser: Browser;
  let serviceId: string;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    const owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
    data(
      await call(t.url, 'POST', 'setServiceGitSource', owner, {
        serviceId,
        repository: 'https://git.example.com/acme/api.git',
        previews: { baseDomain: 'preview.example.com', service: 'api', port: 80 },
      }),
    );
    // A fork's pull request, as its delivery opens it.
    await openPreview(t, {
      serviceId,
      number: 12,
      headCommit: '9a8b7c6d'.padEnd(40, '0'),
      fromFork: true,
      author: 'stranger',
      title: 'Faster search',
    });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows a fork’s preview waiting, approves it, then closes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${t.url}/login?returnTo=%2Fservices`);
    await logInThroughPage(page, OWNER);
    const card = page.getByRole('region', { name: 'api production' });
    const list = card.getByRole('list', { name: 'Pull request previews' });
    await list.getByText('Faster search').waitFor();
    await list.getByText('Waiting for approval').waitFor();
    await list.getByText('from a fork').waitFor();
    await list.getByText('9a8b7c6d0000').waitFor();
    await screenshot(page, 'service-previews');
    await list.getByRole('button', { name: 'Approve #12…' }).click();
    await list.getByText('built and run on your server').waitFor();
    await list.getByRole('button', { name: 'Yes, build and run #12 at 9a8b7c6d0000' }).click();
    await list.getByText('Live').waitFor();
    await expect(
      list.getByRole('link', { name: 'https://pr-12.preview.example.com/' }).count(),
    ).resolves.toBe(1);
    await list.getByRole('button', { name: 'Close #12…' }).click();
    await list.getByRole('button', { name: 'Yes, tear #12 down' }).click();
    await card
      .getByText('No open pull request is previewed.')
      .or(list.getByText('Being torn down'))
      .first()
      .waitFor();
    await context.close();
  });
});
