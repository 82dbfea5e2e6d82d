import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBundle, launchBrowser, screenshot } from './support/browser.js';
import { call, cookieAuth, PASSWORD, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

async function logIn(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${url}/`);
}

/** Projects in Chromium: an owner creates one and gives a member a role there; the member sees it. */
describe('the dashboard: projects', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    await signUp(t.url, 'owner@example.com', 'Olivia Owner');
    await signUp(t.url, 'vera@example.com', 'Vera Viewer');
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lets an owner create a project and give a member a role in it', async () => {
    const page = await browser.newPage();
    await logIn(page, t.url, 'owner@example.com');
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { name: 'Your projects' }).waitFor();
    const create = page.getByRole('form', { name: 'Create a project' });
    await create.getByLabel('Project id').fill('payments');
    await create.getByLabel('Name').fill('Payments');
    await create.getByRole('button', { name: 'Create the project' }).click();
    await page
      .getByRole('table', { name: 'Projects' })
      .getByRole('cell', { name: 'Payments', exact: true })
      .waitFor();
    const give = page.getByRole('form', { name: 'Give a role in Payments' });
    await give
      .getByLabel('Member or agent')
      .selectOption({ label: 'Vera Viewer <vera@example.com> (viewer)' });
    await give.getByLabel('Role in this project').selectOption('operator');
    await give.getByRole('button', { name: 'Give the role' }).click();
    const roles = page.getByRole('table', { name: 'Roles in Payments' });
    await roles.getByText('operator').waitFor();
    await screenshot(page, 'projects-owner');
    await page.close();
  });

  it('shows a member the projects they reach, with their role in each', async () => {
    const page = await browser.newPage();
    await logIn(page, t.url, 'vera@example.com');
    await page.getByRole('link', { name: 'Projects' }).click();
    const table = page.getByRole('table', { name: 'Projects' });
    await table.getByRole('row', { name: /Payments payments operator/ }).waitFor();
    await table.getByRole('row', { name: /Default default viewer/ }).waitFor();
    expect(await page.getByRole('form', { name: 'Create a project' }).count()).toBe(0);
    await screenshot(page, 'projects-member');
    await page.close();
    const vera = cookieAuth(
      await (await import('./support/identity.js')).logIn(t.url, 'vera@example.com'),
    );
    const projects = await call(t.url, 'GET', 'projects', vera);
    expect(
      projects.body.result.data.json.items.map((p: { projectId: string }) => p.projectId),
    ).toEqual(['default', 'payments']);
  });
});
