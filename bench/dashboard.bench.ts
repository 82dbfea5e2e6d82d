import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { median, signUpOwner } from './bench-api.js';
import { startSlipway } from './http-load.js';
import { pageQuality, printPageQuality, type PageAudit } from './page-quality.js';

/** dist/bench/*.js sits beside dist/web, where `npm run build:web` writes the bundle. */
const bundle = (path: string) => fileURLToPath(new URL(`../web/${path}`, import.meta.url));
const CHROMIUM = process.env.SLIPWAY_CHROMIUM ?? '/usr/bin/chromium';
/** The goal of the dashboard issue for the first page's JavaScript, gzipped. */
export const FIRST_PAGE_JS_GOAL_BYTES = 250 * 1024;

export interface BundleSize {
  /** Every script and stylesheet index.html loads (lazy chunks, such as the QR code, are not). */
  files: { path: string; bytes: number; gzipBytes: number }[];
  jsGzipBytes: number;
  cssGzipBytes: number;
  htmlGzipBytes: number;
}

export interface RenderTimes {
  runs: number;
  /** From navigation start to the login form's heading in the DOM, fresh profile (cold cache). */
  loginColdMs: number;
  /** The same with the hashed assets cached (a second visit). */
  loginWarmMs: number;
  /** First contentful paint of the cold visits, as Chromium reports it. */
  firstPaintColdMs: number;
  /** Signed in, after the login page: the overview with the health panel filled. */
  overviewWarmMs: number;
}

/** The first page's weight over the wire: what index.html pulls in, gzipped at level 9. */
export function bundleSize(): BundleSize {
  const html = readFileSync(bundle('index.html'), 'utf8');
  const paths = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1],
  );
  const files = paths.map((path) => {
    const content = readFileSync(bundle(path));
    return { path, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  });
  const sum = (ext: string) =>
    files.filter((f) => f.path.endsWith(ext)).reduce((n, f) => n + f.gzipBytes, 0);
  return {
    files,
    jsGzipBytes: sum('.js'),
    cssGzipBytes: sum('.css'),
    htmlGzipBytes: gzipSync(html, { level: 9 }).length,
  };
}

/**
 * Recorded in the page itself, so no round trip to the browser inflates it: the time since the
 * navigation started at which an element matching `selector` first appeared.
 */
const RECORD_RENDER = `(() => {
  const seen = {};
  window.__renderedAt = seen;
  new MutationObserver(() => {
    for (const selector of ['h1', 'dt']) {
      for (const element of document.querySelectorAll(selector)) {
        const key = selector + ':' + element.textContent;
        if (!(key in seen)) seen[key] = performance.now();
      }
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

async function renderedAt(page: Page, selector: string, text: string): Promise<number> {
  await page.waitForSelector(`${selector}:has-text("${text}")`);
  return Number(
    await page.evaluate(`window.__renderedAt[${JSON.stringify(`${selector}:${text}`)}]`),
  );
}

/** Chromium against the built server on loopback; each cold run in a fresh browser context. */
export async function renderTimes(runs: number): Promise<RenderTimes | null> {
  if (!existsSync(CHROMIUM)) return null;
  const slipway = await startSlipway();
  let browser: Browser | null = null;
  try {
    const owner = await signUpOwner(slipway.url);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const cold: number[] = [];
    const warm: number[] = [];
    const paint: number[] = [];
    const overview: number[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      await context.addInitScript(RECORD_RENDER);
      const page = await context.newPage();
      await page.goto(`${slipway.url}/login`, { waitUntil: 'commit' });
      cold.push(await renderedAt(page, 'h1', 'Log in'));
      await page.waitForLoadState('load');
      paint.push(
        Number(
          await page.evaluate(
            'performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN',
          ),
        ),
      );
      await page.goto(`${slipway.url}/login`, { waitUntil: 'commit' });
      warm.push(await renderedAt(page, 'h1', 'Log in'));
      // As long as a person takes to type: the login page fetches the signed-in pages meanwhile.
      await page.waitForTimeout(1000);

      const [name, value] = owner.cookie.split('=');
      await context.addCookies([{ name, value, url: slipway.url }]);
      await page.goto(`${slipway.url}/`, { waitUntil: 'commit' });
      overview.push(await renderedAt(page, 'dt', 'Events stored'));
      await context.close();
    }
    return {
      runs,
      loginColdMs: median(cold),
      loginWarmMs: median(warm),
      firstPaintColdMs: median(paint.filter((n) => !Number.isNaN(n))),
      overviewWarmMs: median(overview),
    };
  } finally {
    await browser?.close();
    await slipway.stop();
  }
}

export function printDashboard(size: BundleSize, times: RenderTimes | null): void {
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log('\ndashboard: first page (dist/web, gzip -9)');
  for (const f of size.files) {
    console.log(`  ${f.path.padEnd(34)} ${kib(f.bytes).padStart(10)} -> ${kib(f.gzipBytes)}`);
  }
  const share = ((size.jsGzipBytes / FIRST_PAGE_JS_GOAL_BYTES) * 100).toFixed(0);
  console.log(
    `  JavaScript ${kib(size.jsGzipBytes)} gzipped (goal < ${kib(FIRST_PAGE_JS_GOAL_BYTES)}: ${share} % of it), CSS ${kib(size.cssGzipBytes)}, HTML ${kib(size.htmlGzipBytes)}`,
  );
  if (!times) {
    console.log(`  time to first render: skipped (no chromium at ${CHROMIUM})`);
    return;
  }
  console.log(`  time to first render, chromium on loopback (median of ${times.runs})`);
  console.log(`    login page, cold cache      ${times.loginColdMs.toFixed(0)} ms`);
  console.log(`    first contentful paint      ${times.firstPaintColdMs.toFixed(0)} ms (cold)`);
  console.log(`    login page, cached assets   ${times.loginWarmMs.toFixed(0)} ms`);
  console.log(
    `    overview with health data   ${times.overviewWarmMs.toFixed(0)} ms (signed in, after the login page)`,
  );
}

export interface DashboardResult {
  size: BundleSize;
  times: RenderTimes | null;
  quality: PageAudit[] | null;
}

export async function benchDashboard(runs: number): Promise<DashboardResult> {
  const result = {
    size: bundleSize(),
    times: await renderTimes(runs),
    // Each audit loads the page under simulated throttling (~10 s): fewer runs than the rest.
    quality: await pageQuality(Math.min(runs, 5)),
  };
  printDashboard(result.size, result.times);
  printPageQuality(result.quality);
  return result;
}

// `node dist/bench/dashboard.bench.js` (npm run bench:dashboard) runs this one alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchDashboard(Number(process.env.BENCH_RUNS ?? 7)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
