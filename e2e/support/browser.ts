import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { PASSWORD } from './identity.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Debian's chromium (scripts/test-prerequisites.sh installs it); no browser is downloaded. */
export const CHROMIUM = process.env.SLIPWAY_CHROMIUM ?? '/usr/bin/chromium';

/**
 * The browser tests run against the real bundle: built here when web/ changed since the last
 * build (the same check as `npm start`), so `npm test` on a fresh clone builds it first.
 */
export function ensureWebBundle(): void {
  execFileSync(process.execPath, [join(root, 'scripts/build-if-changed.mjs'), 'web'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(join(root, 'dist/web/index.html'))) throw new Error('dist/web was not built');
}

/**
 * Headless chromium with a profile of its own (Playwright gives each launch a fresh one);
 * `extraArgs` for a suite's own switches (say, `--host-resolver-rules`).
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No chromium at ${CHROMIUM}: run scripts/test-prerequisites.sh as root`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/** Where the tests' screenshots go: SLIPWAY_SCREENSHOTS, or a folder under the temp dir. */
export const SCREENSHOTS = process.env.SLIPWAY_SCREENSHOTS ?? join(tmpdir(), 'slipway-screens');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The path and query the page shows now. */
export function here(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Polls `condition` until it holds (10 s at most), for what no single locator can wait on. */
export async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Fills the login form the page shows and submits it (the tests' accounts share PASSWORD). */
export async function logInThroughPage(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * A new browser context signed in as `email` through the login page, on `path` of the service at
 * `origin` (where the login form sends it back). `options` size the window (a tall one holds a
 * whole dialog in one screenshot) or grant permissions.
 */
export async function signedInPage(
  browser: Browser,
  origin: string,
  email: string,
  path: string,
  options: BrowserContextOptions & { permissions?: string[] } = {},
): Promise<[BrowserContext, Page]> {
  const { permissions, ...contextOptions } = options;
  const context = await browser.newContext(contextOptions);
  if (permissions) await context.grantPermissions(permissions, { origin });
  const page = await context.newPage();
  await page.goto(`${origin}/login?returnTo=${encodeURIComponent(path)}`);
  await logInThroughPage(page, email);
  await page.waitForURL(`${origin}${path}`);
  return [context, page];
}
