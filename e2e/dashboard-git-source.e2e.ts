import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { ensureWebBundle, launchBrowser, logInThroughPage, screenshot } from './support/browser.js';
import { data, FINGERPRINT, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';
const REPOSITORY = 'git@git.example.com:acme/api.git';

/** The repository a service follows, on its card in a real browser: never a secret. */
describe('the dashboard: a service’s git source', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Record<string, string>;
  let serviceId: string;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the repository, the deploy key to add, the pinned host key and the rules', async () => {
    const { deployKey, webhook } = data<{
      deployKey: { publicKey: string; fingerprint: string };
      webhook: { path: string; secret: string };
    }>(
      await call(t.url, 'POST', 'setServiceGitSource', owner, {
        serviceId,
        repository: REPOSITORY,
        hostKeyFingerprint: FINGERPRINT,
        rules: [
          { kind: 'branch', pattern: 'main', action: 'deploy' },
          { kind: 'tag', pattern: 'v*', action: 'approval' },
        ],
      }),
    );
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    const page = await context.newPage();
    await page.goto(`${t.url}/login?returnTo=%2Fservices`);
    await logInThroughPage(page, OWNER);
    await page.waitForURL(`${t.url}/services`);
    const card = page.getByRole('region', { name: 'api production' });
    await card.getByText(REPOSITORY).waitFor();
    await card.getByText(deployKey.fingerprint).waitFor();
    await card.getByText(FINGERPRINT).waitFor();
    await card.getByText('deploy after approval').waitFor();
    await card.getByText(`${t.url}${webhook.path}`).waitFor();
    await card.getByRole('button', { name: 'Copy public key' }).click();
    await expect(
      page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).resolves.toBe(deployKey.publicKey);
    expect(await page.content()).not.toMatch(/PRIVATE KEY|iphertext/);
    expect(await page.content()).not.toContain(webhook.secret);
    await screenshot(page, 'service-git-source');
    await context.close();
  });

  it('a deployment of a commit says which commit, on which branch, by whom', async () => {
    const commit = '3f2a9c1d'.padEnd(40, '7');
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'deployServiceCommit', owner, {
        serviceId,
        commit,
        ref: 'refs/heads/main',
      }),
    );
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(
      `${t.url}/login?returnTo=${encodeURIComponent(`/deployments/${deploymentId}`)}`,
    );
    await logInThroughPage(page, OWNER);
    await page.getByText('Commit', { exact: true }).waitFor();
    await page.getByText(commit.slice(0, 12), { exact: true }).waitFor();
    await page.getByText(`from ${REPOSITORY}`).waitFor();
    await page.getByText(`api:${commit}`).first().waitFor();
    await screenshot(page, 'deployment-commit');
    await context.close();
  });

  it('shows no source once it is removed', async () => {
    await call(t.url, 'POST', 'removeServiceGitSource', owner, { serviceId });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/login?returnTo=%2Fservices`);
    await logInThroughPage(page, OWNER);
    const card = page.getByRole('region', { name: 'api production' });
    await card.getByText('Environment').first().waitFor();
    await expect(card.getByText('Source').count()).resolves.toBe(0);
    await context.close();
  });
});
