import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { ensureWebBundle, launchBrowser, logInThroughPage, screenshot } from './support/browser.js';
import { data } from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { EdgeWatch } from '../src/runner/edge/edge-watch.js';

const OWNER = 'owner@example.com';
const VIEWER = 'viewer@example.com';

/**
 * The server page's edge proxy in a real browser: the routes of the server's services, the last
 * sync, and a button that syncs it (over the test sshd, whose stand-in docker has no proxy yet,
 * so the sync starts one); a viewer sees the routes and no button.
 */
describe('the dashboard: a server’s edge proxy', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let browser: Browser;
  let owner: Record<string, string>;
  let serverId: string;
  let sshdStopped = false;

  beforeAll(async () => {
    ensureWebBundle();
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    await memberWithRole(t.url, owner, VIEWER, 'viewer');
    serverId = await registerLoopbackServer(t.url, owner, sshd);
    data(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'shop',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/shop',
        compose: 'services:\n  web:\n    image: ghcr.io/acme/shop:1.0.0\n',
        routes: [{ domain: 'shop.example.com', pathPrefix: '/store', service: 'web', port: 8080 }],
      }),
    );
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (!sshdStopped) await sshd?.stop();
  });

  const open = async (email: string) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/login?returnTo=%2Fservers`);
    await logInThroughPage(page, email);
    await page.waitForURL(`${t.url}/servers`);
    return { context, page };
  };

  it('shows the routes and syncs the proxy at a click', async () => {
    const { context, page } = await open(OWNER);
    const edge = page.getByLabel('Edge proxy');
    await edge.getByText('shop.example.com/store').waitFor();
    await expect(edge.innerText()).resolves.toContain('→ shop (production), web:8080');
    await edge.getByRole('button', { name: 'Sync the edge proxy' }).click();
    await edge.getByRole('status').getByText('1 route; started').waitFor();
    await edge.getByText(/^Last sync succeeded \(manual: started\)/).waitFor();
    await screenshot(page, 'server-edge');
    await context.close();
  });

  it('shows a viewer the routes without the button', async () => {
    const { context, page } = await open(VIEWER);
    const edge = page.getByLabel('Edge proxy');
    await edge.getByText('shop.example.com/store').waitFor();
    await expect(edge.getByRole('button').count()).resolves.toBe(0);
    await context.close();
  });

  it('records a server the watch cannot reach once, not at every pass', async () => {
    await sshd.stop();
    sshdStopped = true;
    const watch = t.app.get(EdgeWatch);
    const edge = async () =>
      data<{ edge: { ok: boolean; reason: string; failure: string; syncedAt: string } }>(
        await call(t.url, 'GET', 'serverDetails', owner, { serverId }),
      ).edge;
    await watch.tick();
    const first = await edge();
    expect(first).toMatchObject({ ok: false, reason: 'watch' });
    expect(first.failure).toMatch(/connect/);
    await watch.tick();
    await watch.tick();
    expect((await edge()).syncedAt).toBe(first.syncedAt);
  });
});
