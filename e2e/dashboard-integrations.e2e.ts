import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../src/config/app-config.js';
import { ensureWebBundle, launchBrowser, screenshot, signedInPage } from './support/browser.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { seed, SERVICE_ID, serviceWithHistory } from './support/seed.js';
import { startSmtp, type TestSmtp } from './support/smtp.js';
import { ALLOW_LOOPBACK } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';
const VIEWER = 'viewer@example.com';

/**
 * The pages of invites, notification channels, deploy webhooks and backups in a real browser,
 * against the real service, a real SMTP server and a real webhook receiver on loopback: an
 * invite is mailed and listed without its link; a channel's secret and a deploy webhook's secret
 * are shown once; a test delivery reaches the receiver and is listed; a viewer sees no control.
 */
describe('the dashboard: invites, notifications, deploy webhooks and backups in a real browser', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let receiver: Server;
  let receiverUrl: string;
  let received = 0;
  let browser: Browser;
  let owner: Record<string, string>;
  let admin: Record<string, string>;

  beforeAll(async () => {
    ensureWebBundle();
    smtp = await startSmtp();
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received += 1;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const defaults = loadConfig({});
    t = await startTestApp({
      notes: false,
      config: {
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        notifications: {
          ...defaults.notifications,
          tokenScanMinutes: 0,
          addressPolicy: ALLOW_LOOPBACK,
        },
      },
    });
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    await memberWithRole(t.url, owner, VIEWER, 'viewer');
    admin = await memberWithRole(t.url, owner, 'adam@example.com', 'admin');
    await seed(t, serviceWithHistory());
    const recorded = await call(t.url, 'POST', 'recordBackup', owner, {
      serviceId: SERVICE_ID,
      location: '/var/backups/api/2026-11-23.tar.gz',
      checksum: `sha256:${'ab'.repeat(32)}`,
      sizeBytes: 4_718_592,
    });
    expect(recorded.status).toBe(200);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const signedIn = (email: string, path: string) => signedInPage(browser, t.url, email, path);

  it('invites a member by mail and lists the invite without its link; revokes it', async () => {
    const [context, page] = await signedIn(OWNER, '/members');
    const invites = page.getByRole('region', { name: 'Invites' });
    await invites.getByText('No invite yet').waitFor();
    const form = invites.getByRole('form', { name: 'Invite a member' });
    await form.getByLabel('Email of the person to invite').fill('not-an-email');
    await form.getByRole('button', { name: 'Send the invite' }).click();
    // The form marks the field once it has validated the click: wait for it, then read it.
    await form.locator('input[aria-invalid="true"]').waitFor();
    await expect(
      form.getByLabel('Email of the person to invite').getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    await form.getByLabel('Email of the person to invite').fill('nina@example.com');
    await form.getByLabel('Role').selectOption('operator');
    await form.getByRole('button', { name: 'Send the invite' }).click();
    await invites.getByText(/Invite mailed to nina@example.com as operator/).waitFor();
    const row = invites.getByRole('row').filter({ hasText: 'nina@example.com' });
    await row.getByText('Pending', { exact: false }).waitFor();
    // The link went to the mailbox only: the page never holds it.
    const mail = await smtp.mailTo('nina@example.com', /invited to Slipway/);
    const token = /\/api\/auth\/invite\?token=([0-9a-f-]{36}\.[A-Za-z0-9_-]{43})/.exec(
      mail.text,
    )?.[1];
    expect(token).toBeDefined();
    expect(await page.content()).not.toContain(token!);
    expect(await page.content()).not.toContain(token!.split('.')[1]);
    await screenshot(page, 'members-invites');
    await row.getByRole('button', { name: 'Revoke the invite of nina@example.com…' }).click();
    await row.getByRole('button', { name: 'Yes, revoke it' }).click();
    await row.getByText('Revoked', { exact: false }).waitFor();
    await context.close();
  }, 60_000);

  it('adds a webhook channel, shows its secret once, and lists a test delivery', async () => {
    const [context, page] = await signedIn(OWNER, '/notifications');
    await page.getByText('No notification channel yet.').waitFor();
    await page.getByRole('button', { name: 'Add a channel' }).click();
    const form = page.getByRole('form', { name: 'Add a notification channel' });
    await form.getByLabel('Name').fill('ops hook');
    await form.getByLabel('Target').fill(receiverUrl);
    await form.getByRole('checkbox', { name: 'approval.requested' }).check();
    await form.getByRole('button', { name: 'Add the channel' }).click();
    await page.getByText('Channel ops hook added.').waitFor();
    const secret = await page.getByTestId('token-value').innerText();
    expect(secret.length).toBeGreaterThan(16);
    await screenshot(page, 'notifications-secret-once');
    // Shown once: the list and a reload never show it again.
    const card = page.getByRole('region', { name: 'ops hook' });
    await card.waitFor();
    await page.reload();
    await card.waitFor();
    expect(await page.content()).not.toContain(secret);

    await card.getByRole('button', { name: 'Send a test to ops hook' }).click();
    await card.getByText('Test queued').waitFor();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await deliveries.getByRole('row').filter({ hasText: 'ops hook' }).getByText('test').waitFor();
    await deliveries.getByText('Delivered', { exact: false }).waitFor({ timeout: 15_000 });
    expect(received).toBeGreaterThan(0);
    await card.getByRole('button', { name: 'Pause ops hook' }).click();
    await card.getByRole('button', { name: 'Resume ops hook' }).waitFor();
    await screenshot(page, 'notifications');
    await context.close();
  }, 60_000);

  it('adds a deploy webhook to a service with its URL and secret shown once; lists backups with a restore plan', async () => {
    const [context, page] = await signedIn(OWNER, '/services');
    const card = page.getByRole('region', { name: 'api production' });
    await card.getByRole('button', { name: 'Deploy webhooks…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy webhooks of api' });
    await dialog.getByText('No deploy webhook').waitFor();
    const form = dialog.getByRole('form', { name: 'Add a deploy webhook' });
    await form.getByLabel('Hook name').fill('registry');
    await form.getByLabel('Pattern').fill('v*');
    await form.getByRole('button', { name: 'Add the webhook' }).click();
    const secret = await dialog.getByTestId('token-value').innerText();
    expect(secret.length).toBeGreaterThan(16);
    await dialog
      .getByText(/\/api\/v1\/hooks\//)
      .first()
      .waitFor();
    await dialog
      .getByRole('list', { name: 'Deploy webhooks' })
      .getByText('registry', { exact: true })
      .waitFor();
    await screenshot(page, 'service-deploy-webhooks');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Opened again, the list has the hook and not its secret.
    await card.getByRole('button', { name: 'Deploy webhooks…' }).click();
    await dialog
      .getByRole('list', { name: 'Deploy webhooks' })
      .getByText('registry', { exact: true })
      .waitFor();
    expect(await page.content()).not.toContain(secret);
    await dialog.getByRole('button', { name: 'Revoke registry…' }).click();
    await dialog.getByRole('button', { name: 'Yes, revoke registry' }).click();
    await dialog.getByText('Revoked', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    await card.getByRole('button', { name: 'Backups…' }).click();
    const backups = page.getByRole('dialog', { name: 'Backups of api' });
    await backups.getByText('4.5 MB').waitFor();
    await backups.getByRole('button', { name: 'Restore this backup…' }).click();
    await backups.getByRole('region', { name: /^Restore plan/ }).waitFor();
    await backups
      .getByLabel('Why restore (12-280 characters)')
      .fill('data lost in the bad migration');
    await backups.getByRole('button', { name: 'Ask for approval to restore' }).click();
    await backups.getByText(/Waiting for approval by another person/).waitFor();
    await screenshot(page, 'service-backups');

    // Another person approves it; reopened, the dialog offers the restore with that approval.
    const pending = await call(t.url, 'GET', 'approvalQueue', admin, { status: 'pending' });
    const request = (
      pending.body as { result: { data: { json: { items: { id: string; action: string }[] } } } }
    ).result.data.json.items.find((a) => a.action === 'restore');
    const approved = await call(t.url, 'POST', 'approveRequest', admin, {
      approvalId: request!.id,
    });
    expect(approved.status).toBe(200);
    await page.keyboard.press('Escape');
    await backups.waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Backups…' }).click();
    await backups.getByRole('button', { name: 'Restore this backup…' }).click();
    await backups.getByRole('button', { name: 'Restore now: approved by another person' }).click();
    // The seeded service has no restore command: the API's refusal is shown in its words.
    await backups
      .getByRole('alert')
      .getByText(/no restore command/)
      .waitFor();
    await screenshot(page, 'service-backups-restore-refused');
    await context.close();
  }, 60_000);

  it('shows a viewer the webhooks and backups but no control to change them', async () => {
    const [context, page] = await signedIn(VIEWER, '/services');
    const card = page.getByRole('region', { name: 'api production' });
    await card.getByRole('button', { name: 'Deploy webhooks…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy webhooks of api' });
    await dialog.getByText('registry', { exact: true }).waitFor();
    await expect(dialog.getByRole('button').allInnerTexts()).resolves.toEqual(['Close']);
    await expect(dialog.getByRole('textbox').count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await card.getByRole('button', { name: 'Backups…' }).click();
    const backups = page.getByRole('dialog', { name: 'Backups of api' });
    await backups.getByText('4.5 MB').waitFor();
    await expect(backups.getByRole('button').allInnerTexts()).resolves.toEqual(['Close']);
    await page.keyboard.press('Escape');
    // No navigation to notifications, and no invites on the members page.
    await expect(page.getByRole('link', { name: 'Notifications' }).count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await expect(page.getByRole('region', { name: 'Invites' }).count()).resolves.toBe(0);
    await context.close();
  }, 60_000);
});
