import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { allEvents } from './support/audit.js';
import { ensureWebBundle, here, launchBrowser, screenshot } from './support/browser.js';
import { call, cookieAuth, PASSWORD, signUp } from './support/identity.js';
import {
  IDP_CLIENT_ID,
  IDP_CLIENT_SECRET,
  startTestIdp,
  type TestIdp,
} from './support/oidc-idp.js';
import { freePort } from './support/ports.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const seeHeading = (page: Page, title: string) =>
  page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();

/** At the test provider's own sign-in form: who is at the keyboard. */
async function signInAtIdp(page: Page, login: string): Promise<void> {
  await page.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
  await page.getByLabel('Login').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Single sign-on in Chromium: the sign-in page offers the provider, the provider's own form
 * signs the person in, and the dashboard opens; a refusal comes back to the sign-in page with
 * its reason. An owner adds a provider on the security page.
 */
describe('the dashboard: single sign-on', () => {
  let idp: TestIdp;
  let t: TestApp;
  let browser: Browser;
  let owner: Record<string, string>;
  let publicUrl: string;

  beforeAll(async () => {
    ensureWebBundle();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    idp = await startTestIdp([`${publicUrl}/api/auth/sso/callback`]);
    idp.users.set('alice', {
      email: 'alice@corp.example',
      name: 'Alice Liddell',
      groups: ['devs'],
    });
    idp.users.set('carol', { email: 'carol@elsewhere.example', name: 'Carol' });
    t = await startTestApp({ notes: false, listenPort: port, config: { publicUrl } });
    owner = cookieAuth((await signUp(t.url, 'owner@corp.example', 'Olivia Owner')).cookie);
    const configured = await call(t.url, 'POST', 'configureIdentityProvider', owner, {
      providerId: 'corp',
      displayName: 'Corp SSO',
      issuer: idp.issuer,
      clientId: IDP_CLIENT_ID,
      clientSecret: IDP_CLIENT_SECRET,
      allowedDomains: ['corp.example'],
      roleClaim: 'groups',
      roleRules: [{ value: 'devs', role: 'operator' }],
    });
    expect(configured.status).toBe(200);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await idp?.stop();
  });

  it('signs a person in through the provider and back to the page they asked for', async () => {
    const page = await browser.newPage();
    await page.goto(`${publicUrl}/services`);
    await page.waitForURL(/\/login\?returnTo=/);
    await screenshot(page, 'sso-login-page');
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await signInAtIdp(page, 'alice');
    await seeHeading(page, 'Services');
    expect(here(page)).toBe('/services');
    await page.getByText('Alice Liddell').first().waitFor();
    await screenshot(page, 'sso-signed-in');
    await page.close();
    const linked = (await allEvents(t)).filter((e) => e.type === 'SsoIdentityLinked');
    expect(linked).toHaveLength(1);
  });

  it('brings a refused person back to the sign-in page with the reason', async () => {
    const page = await browser.newPage();
    await page.goto(`${publicUrl}/login`);
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await signInAtIdp(page, 'carol');
    await page
      .getByRole('alert')
      .getByText('Your email domain may not join. Ask an owner or admin for an invite.')
      .waitFor();
    expect(here(page)).toBe('/login?sso_error=domain-not-allowed');
    await screenshot(page, 'sso-refused');
    await page.close();
  });

  it('lets an owner add a provider and require single sign-on on the security page', async () => {
    const page = await browser.newPage();
    await page.goto(`${publicUrl}/login`);
    await page.getByLabel('Email').fill('owner@corp.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${publicUrl}/`);
    await page.goto(`${publicUrl}/settings/security`);
    await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
    await page.getByText(`${publicUrl}/api/auth/sso/callback`).waitFor();
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Provider id').fill('partner');
    await form.getByLabel('Name on the sign-in page').fill('Partner IdP');
    await form.getByLabel('Issuer').fill('https://login.partner.example');
    await form.getByLabel('Client id').fill('slipway');
    await form.getByLabel('Client secret').fill('partner-secret-value');
    await form.getByLabel('Claim that decides roles').fill('groups');
    await form.getByLabel('Claim value = role, one per line').fill('ops = operator');
    await form.getByRole('button', { name: 'Add the provider' }).click();
    const table = page.getByRole('table', { name: 'Identity providers' });
    await table.getByText('Partner IdP').waitFor();
    await table.getByText('groups: ops→operator; else refused').waitFor();
    await page.getByLabel('Require single sign-on for everyone').check();
    await page.getByRole('form', { name: 'Single sign-on required' }).getByRole('button').click();
    await page.getByText('Humans now sign in through a provider.').waitFor();
    await screenshot(page, 'sso-security-page');
    const status = await call(t.url, 'GET', 'accountSecurityStatus', owner);
    expect(status.body.result.data.json.ssoRequired).toBe(true);
    await page.close();
  });
});
