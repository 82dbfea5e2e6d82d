import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import {
  ensureWebBundle,
  launchBrowser,
  logInThroughPage,
  screenshot,
  signedInPage,
} from './support/browser.js';
import { bearer, call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';

/**
 * Agents and tokens, members, the audit trail and the security settings, in a real browser:
 * a token's value is shown once and works; rotation and revocation take effect at once; roles
 * change; the chain verifies; the team MFA policy holds the next login at the enrolment page.
 */
describe('the dashboard: agents, tokens, members, audit and security in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let owner: Record<string, string>;
  let viewer: Record<string, string>;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    origin = t.url;
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    viewer = await memberWithRole(t.url, owner, 'vera@example.com', 'viewer');
    await signUp(t.url, 'dan@example.com', 'Dan Developer');
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signedIn = (email: string, path: string) =>
    signedInPage(browser, origin, email, path, {
      permissions: ['clipboard-read', 'clipboard-write'],
    });

  const viewerOf = (token: string) => call(t.url, 'GET', 'viewer', bearer(token));

  it('creates an agent with a preset and mints a token shown once, with a copy button', async () => {
    const [context, page] = await signedIn(OWNER, '/agents');
    await page.getByText('No agent yet.').waitFor();
    await screenshot(page, 'agents-empty');
    const create = page.getByRole('form', { name: 'Create an agent' });
    await create.getByLabel('Name').fill('ci-bot');
    await create.getByLabel('Preset').selectOption('agent:minimal-write');
    await create.getByRole('button', { name: 'Create the agent' }).click();
    const agent = page.getByRole('region', { name: 'ci-bot' });
    await agent.getByText('agent:minimal-write').waitFor();

    const mint = agent.getByRole('form', { name: 'Mint a token for ci-bot' });
    await mint.getByLabel('Token name').fill('deploys');
    await mint.getByLabel('Expires in (days)').fill('400');
    await mint.getByRole('button', { name: 'Mint a token' }).click();
    // The form marks the field once it has validated the click: wait for it, then read it.
    await mint.locator('input[aria-invalid="true"]').waitFor();
    await expect(mint.getByLabel('Expires in (days)').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
    await mint.getByLabel('Expires in (days)').fill('30');
    await mint.getByRole('button', { name: 'Mint a token' }).click();
    const value = await agent.getByTestId('token-value').innerText();
    expect(value).toMatch(/^slw_/);
    await agent.getByRole('button', { name: 'Copy', exact: true }).click();
    await agent.getByRole('button', { name: 'Copied' }).waitFor();
    await expect(
      page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).resolves.toBe(value);
    await screenshot(page, 'agents-token-once');
    expect((await viewerOf(value)).status).toBe(200);

    // Once: after a reload the value is nowhere on the page, only the token's metadata.
    await page.reload();
    await agent.getByText('deploys').first().waitFor();
    expect(await page.content()).not.toContain(value);

    // Rotation without overlap: the new value is shown once, the old one refused at once.
    await agent.getByLabel('Overlap (minutes the old value still works)').fill('0');
    await agent.getByRole('button', { name: 'Rotate deploys' }).click();
    const rotated = await agent.getByTestId('token-value').innerText();
    expect(rotated).not.toBe(value);
    expect((await viewerOf(value)).status).toBe(401);
    expect((await viewerOf(rotated)).status).toBe(200);
    await screenshot(page, 'agents-rotated');

    await page.reload();
    const active = agent.getByRole('listitem').filter({ hasText: 'Active' });
    await active.getByRole('button', { name: 'Revoke deploys…' }).click();
    await active.getByRole('button', { name: 'Yes, revoke deploys' }).click();
    await agent.getByText('Revoked').first().waitFor();
    expect((await viewerOf(rotated)).status).toBe(401);
    await screenshot(page, 'agents');
    await context.close();
  }, 60_000);

  it('changes a member’s role and deactivates another', async () => {
    const [context, page] = await signedIn(OWNER, '/members');
    const vera = page.getByRole('row').filter({ hasText: 'vera@example.com' });
    await vera.getByLabel('Role of vera').selectOption('operator');
    await vera.getByRole('button', { name: 'Save the role of vera' }).click();
    await vera
      .getByRole('button', { name: 'Save the role of vera' })
      .waitFor({ state: 'detached' });
    const dan = page.getByRole('row').filter({ hasText: 'dan@example.com' });
    await dan.getByRole('button', { name: 'Deactivate Dan Developer…' }).click();
    await dan.getByRole('button', { name: 'Yes, deactivate Dan Developer' }).click();
    await dan.getByText('Deactivated').waitFor();
    await screenshot(page, 'members');
    const members = await call(t.url, 'GET', 'members', owner);
    const items = (
      members.body as { result: { data: { json: { items: { email: string; role: string }[] } } } }
    ).result.data.json.items;
    expect(items.find((m) => m.email === 'vera@example.com')?.role).toBe('operator');
    await context.close();
    // Back to a viewer for the next test.
    const res = await call(t.url, 'POST', 'changeUserRole', owner, {
      userId: (
        members.body as { result: { data: { json: { items: { id: string; email: string }[] } } } }
      ).result.data.json.items.find((m) => m.email === 'vera@example.com')!.id,
      role: 'viewer',
    });
    expect(res.status).toBe(200);
  }, 60_000);

  it('filters the audit trail, opens an entry, verifies the chain and offers the exports', async () => {
    const [context, page] = await signedIn(OWNER, '/audit');
    await page.getByLabel('Action (event type)').fill('TokenRevoked');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/action=TokenRevoked/);
    const entries = page.getByRole('region', { name: 'Entries' }).getByRole('listitem');
    await entries.first().waitFor();
    await expect(entries.count()).resolves.toBe(1);
    await entries.first().locator('summary').click();
    await expect(entries.first().innerText()).resolves.toContain('Olivia Owner');
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    const report = page.getByRole('status').filter({ hasText: 'Verified' });
    await report.waitFor();
    await expect(report.innerText()).resolves.toContain('BEGIN PUBLIC KEY');
    await screenshot(page, 'audit');
    const href = await page.getByRole('link', { name: 'NDJSON' }).getAttribute('href');
    const exported = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(exported.split('\n')[0]).toContain('"kind":"header"');
    await page.getByLabel('Outcome').selectOption('denied');
    await page.getByLabel('Action (event type)').fill('');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/outcome=denied/);
    await context.close();
  }, 60_000);

  it('shows a viewer neither the admin pages nor their controls; the API refuses them', async () => {
    const [context, page] = await signedIn('vera@example.com', '/settings/security');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Security settings' }).waitFor();
    await expect(nav.innerText()).resolves.not.toMatch(/Agents|Audit/);
    await expect(page.getByRole('button').allInnerTexts()).resolves.toEqual(['Log out']);
    await screenshot(page, 'viewer-security');
    // Members: the list, read only.
    await nav.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('row').filter({ hasText: 'owner@example.com' }).waitFor();
    await expect(page.getByRole('button').allInnerTexts()).resolves.toEqual(['Log out']);
    await expect(page.getByRole('combobox').count()).resolves.toBe(0);
    await context.close();
    for (const [name, input] of [
      ['createAgent', { name: 'sneaky' }],
      ['updateAccountSecurityPolicy', { policy: 'optional' }],
      ['changeUserRole', { userId: '00000000-0000-4000-8000-000000000001', role: 'owner' }],
    ] as const) {
      const res = await call(t.url, 'POST', name, viewer, input);
      expect([name, res.status]).toEqual([name, 403]);
    }
  }, 60_000);

  it('sets the team MFA policy; the next login without a second factor lands on enrolment', async () => {
    const [context, page] = await signedIn(OWNER, '/settings/security');
    await page.getByLabel('Required for everyone').check();
    await page.getByRole('button', { name: 'Save the policy' }).click();
    await page.getByText('The policy is now “all”').waitFor();
    await screenshot(page, 'security-settings');
    await context.close();

    const viewerContext = await browser.newContext();
    const viewerPage = await viewerContext.newPage();
    await viewerPage.goto(`${origin}/login?returnTo=%2Fdeployments`);
    await logInThroughPage(viewerPage, 'vera@example.com');
    await viewerPage.waitForURL(/\/account\/mfa\?returnTo=%2Fdeployments/);
    await viewerPage.getByText('Your team requires two-factor authentication').waitFor();
    await viewerContext.close();
    const refused = await call(t.url, 'GET', 'recentDeployments', viewer);
    expect([refused.status, (refused.body as { error: { code: string } }).error.code]).toEqual([
      403,
      'MFA_REQUIRED',
    ]);
  }, 60_000);
});
