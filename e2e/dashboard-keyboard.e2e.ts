import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBundle, launchBrowser, screenshot } from './support/browser.js';
import { PASSWORD, signUp } from './support/identity.js';
import { seed, serviceWithHistory } from './support/seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';

interface Focused {
  tag: string;
  name: string;
  visible: boolean;
  inDialog: boolean;
}

/**
 * What has the focus: its tag, its accessible name (roughly), whether it shows a focus ring.
 * (Run in the page; a string, since this project's TypeScript has no DOM types.)
 */
const FOCUSED = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { tag: 'body', name: '', visible: false, inDialog: false };
  const label = (el.labels && el.labels[0] && el.labels[0].textContent) || '';
  const name = el.getAttribute('aria-label') || label || el.textContent || '';
  return {
    tag: el.tagName.toLowerCase(),
    name: name.trim(),
    visible: el.matches(':focus-visible'),
    inDialog: el.closest('dialog') !== null,
  };
})()`;
const focused = (page: Page): Promise<Focused> => page.evaluate<Focused>(FOCUSED);

/** Presses Tab (or Shift+Tab) until the focused element's name matches, as a keyboard user. */
async function tabTo(page: Page, name: string | RegExp, back = false): Promise<Focused> {
  const seen: string[] = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (typeof name === 'string' ? now.name === name : name.test(now.name)) return now;
    seen.push(`${now.tag}:${now.name.slice(0, 30)}`);
  }
  throw new Error(`Tab never reached ${String(name)}; passed ${seen.join(' | ')}`);
}

/**
 * The dashboard with the keyboard only (Tab, Shift+Tab, Enter, Space, Escape) in a real browser:
 * log in, move between pages, open the deploy dialog, see the plan and confirm it, close a dialog
 * with Escape; the focus is visible on every control reached and returns to the opener.
 */
describe('the dashboard with the keyboard only', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    await signUp(t.url, OWNER, 'Olivia Owner');
    await seed(t, serviceWithHistory());
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('logs in, navigates, deploys with its plan and closes dialogs with Escape', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/login`);
    await page.getByRole('heading', { level: 1 }).waitFor();

    // The login form.
    expect((await tabTo(page, 'Email')).visible).toBe(true);
    await page.keyboard.type(OWNER);
    await tabTo(page, 'Password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${t.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    // The skip link first, then the navigation.
    const skip = await tabTo(page, 'Skip to content');
    expect(skip.visible).toBe(true);
    await page.keyboard.press('Enter');
    expect((await focused(page)).tag).toBe('main');
    const nav = await tabTo(page, 'Services', true);
    expect(nav).toMatchObject({ tag: 'a', visible: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${t.url}/services`);
    // The new page's title takes the focus.
    await page.getByRole('heading', { level: 1, name: 'Services' }).waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'h1', name: 'Services' });

    // A dialog opened from the keyboard and closed with Escape gives the focus back.
    expect(await tabTo(page, 'Deploy…')).toMatchObject({ tag: 'button', visible: true });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Deploy api' });
    await dialog.waitFor();
    expect((await focused(page)).inDialog).toBe(true);
    // The focus stays in the dialog, both ways round.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      if (now.tag !== 'body') expect(now.inDialog).toBe(true);
    }
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Shift+Tab');
      const now = await focused(page);
      if (now.tag !== 'body') expect(now.inDialog).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Deploy…', visible: true });

    // Deploy: the plan first, confirmed with Space.
    await page.keyboard.press('Space');
    await dialog.waitFor();
    expect(await tabTo(page, 'Image tag')).toMatchObject({ tag: 'input', visible: true });
    await page.keyboard.type('1.3.0');
    await page.keyboard.press('Enter');
    await dialog.getByRole('region', { name: 'Plan for ghcr.io/acme/api:1.3.0' }).waitFor();
    await screenshot(page, 'keyboard-deploy-plan');
    const confirm = await tabTo(page, /^(Deploy ghcr\.io\/acme\/api:1\.3\.0|Ask for approval)$/);
    expect(confirm).toMatchObject({ tag: 'button', visible: true, inDialog: true });
    await page.keyboard.press('Space');
    await dialog
      .getByText(/Queued|Waiting for approval/)
      .first()
      .waitFor();
    const follow = await tabTo(page, /^(Follow the deployment|See the approvals)$/);
    expect(follow.visible).toBe(true);
    // The Close button closes it as well, and the focus goes back again.
    await tabTo(page, 'Close');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Deploy…' });

    // On to the deployments with the keyboard, and into one of them.
    await tabTo(page, 'Deployments', true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Deployments' }).waitFor();
    await tabTo(page, /ghcr\.io\/acme\/api:1\.3\.0/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/deployments\/[0-9a-f-]{36}$/);
    await screenshot(page, 'keyboard-deployment');
    await context.close();
  }, 90_000);
});
