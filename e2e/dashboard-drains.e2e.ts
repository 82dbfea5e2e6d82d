import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../src/config/app-config.js';
import { ensureWebBundle, launchBrowser, screenshot, signedInPage } from './support/browser.js';
import { data } from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startOtlpReceiver, type TestOtlpReceiver } from './support/otlp-receiver.js';
import { freePort } from './support/ports.js';
import { ALLOW_LOOPBACK } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';
const VIEWER = 'viewer@example.com';
const HEADER: [string, string] = ['x-api-key', 'drain-key-Zq81-never-shown'];

interface DrainView {
  drainId: string;
  enabled: boolean;
  headerNames: string[];
  delivery: { status: string; delivered: number };
}

/**
 * The drains on the notifications page in a real browser, against the real service and a real
 * OTLP receiver on loopback that asks for a header: a drain added in the form delivers (its own
 * configuration is its first record), its header is listed by name and never shown, a bad
 * endpoint is refused beside its field, a drain whose receiver is away shows why, and a drain is
 * disabled (keeping its header) and removed after a confirmation. A viewer sees none of it.
 */
describe('the dashboard: drains in a real browser', () => {
  let t: TestApp;
  let receiver: TestOtlpReceiver;
  let browser: Browser;
  let owner: Record<string, string>;

  const drains = async () =>
    data<{ drains: DrainView[] }>(await call(t.url, 'GET', 'drains', owner));

  beforeAll(async () => {
    ensureWebBundle();
    receiver = await startOtlpReceiver({ requireHeader: HEADER });
    const defaults = loadConfig({});
    t = await startTestApp({
      notes: false,
      config: {
        notifications: {
          ...defaults.notifications,
          tokenScanMinutes: 0,
          addressPolicy: ALLOW_LOOPBACK,
        },
        drains: { intervalMs: 50, timeoutMs: 3_000, retryBaseMs: 100 },
      },
    });
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    await memberWithRole(t.url, owner, VIEWER, 'viewer');
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.stop();
  });

  const signedIn = (email: string, path: string) => signedInPage(browser, t.url, email, path);

  it('adds an OTLP drain that delivers, refuses a bad endpoint, disables and removes it', async () => {
    const [context, page] = await signedIn(OWNER, '/notifications');
    const section = page.getByRole('region', { name: 'Drains' });
    await section.getByText('No drain yet.').waitFor();
    await section.getByRole('button', { name: 'Add a drain' }).click();
    const form = section.getByRole('form', { name: 'Add a drain' });
    await form.getByLabel('Name', { exact: true }).fill('Collector');
    await form.getByLabel('Drain id').fill('collector');
    await form.getByLabel('Kind').selectOption('otlp');
    await form.getByLabel('Endpoint').fill(receiver.url);
    await form.getByRole('checkbox', { name: 'Deployment output' }).check();
    await form.getByLabel('Header name (optional)').fill(HEADER[0]);
    await expect(form.getByLabel('Header value').getAttribute('type')).resolves.toBe('password');
    await form.getByLabel('Header value').fill(HEADER[1]);
    await form.getByRole('button', { name: 'Add the drain' }).click();
    await section.getByText('Drain collector saved').waitFor();

    // The card: its place, what it sends, its header by name; delivering its own configuration.
    const card = section.getByRole('region', { name: 'Collector' });
    await card.getByText('Audit trail, Deployment output').waitFor();
    await card.getByText(receiver.url).waitFor();
    await card.getByText(HEADER[0], { exact: true }).waitFor();
    await receiver.waitFor(
      (records) => records.some((r) => r.attributes['slipway.audit.action'] === 'DrainConfigured'),
      'the drain its own DrainConfigured record',
    );
    await card.getByText(/^delivering$/i).waitFor();
    await card.getByText(/^[1-9][\d,]* records?$/).waitFor();
    expect(await page.content()).not.toContain(HEADER[1]);

    // An id in use is refused here (configuring it would replace that drain whole) ...
    await form.getByLabel('Name', { exact: true }).fill('SIEM');
    await form.getByLabel('Drain id').fill('collector');
    await form.getByText('is the id of a drain already').waitFor();
    // ... and the server's refusal of an endpoint shows beside the field it names.
    await form.getByLabel('Drain id').fill('siem');
    await form.getByLabel('Kind').selectOption('syslog');
    await form.getByLabel('Endpoint').fill('udp://x:1');
    await form.getByRole('button', { name: 'Add the drain' }).click();
    await form.getByText('must be tls://host:port (syslog is sent over TLS)').waitFor();
    await expect(form.getByLabel('Endpoint').getAttribute('aria-invalid')).resolves.toBe('true');
    await form.getByRole('alert').getByText('Please correct the fields marked below.').waitFor();
    await screenshot(page, 'drains-endpoint-refused');

    // A receiver that is away: the drain says it is failing, why, and when it tries again.
    const away = await freePort();
    await form.getByLabel('Name', { exact: true }).fill('Archive');
    await form.getByLabel('Drain id').fill('archive');
    await form.getByLabel('Kind').selectOption('otlp');
    await form.getByLabel('Endpoint').fill(`http://127.0.0.1:${away}/v1/logs`);
    await form.getByRole('button', { name: 'Add the drain' }).click();
    await section.getByText('Drain archive saved').waitFor();
    const archive = section.getByRole('region', { name: 'Archive' });
    await archive.getByText(/^failing$/i).waitFor({ timeout: 15_000 });
    await archive.getByText('Last error').waitFor();
    await archive.getByText('Next attempt').waitFor();
    await section.getByRole('button', { name: 'Close the drain form' }).click();
    await screenshot(page, 'drains');

    // Disabled: configured again whole with its header left out, so the header is kept.
    await card.getByRole('button', { name: 'Disable Collector' }).click();
    await card.getByRole('button', { name: 'Enable Collector' }).waitFor();
    await card.getByText(/^disabled$/i).waitFor();
    const disabled = (await drains()).drains.find((d) => d.drainId === 'collector');
    expect(disabled).toMatchObject({ enabled: false, headerNames: [HEADER[0]] });

    // Removed after a confirmation; "Keep it" keeps it.
    await card.getByRole('button', { name: 'Remove Collector…' }).click();
    await card.getByRole('group', { name: 'Remove Collector?' }).waitFor();
    await card.getByRole('button', { name: 'Keep it' }).click();
    await card.getByRole('button', { name: 'Remove Collector…' }).click();
    await card.getByRole('button', { name: 'Yes, remove Collector' }).click();
    await card.waitFor({ state: 'detached' });
    expect((await drains()).drains.map((d) => d.drainId)).toEqual(['archive']);
    await context.close();
  }, 90_000);

  it('shows a viewer no drains and no control', async () => {
    const [context, page] = await signedIn(VIEWER, '/notifications');
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await expect(page.getByRole('region', { name: 'Drains' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Add a drain' }).count()).resolves.toBe(0);
    await context.close();
  }, 60_000);
});
