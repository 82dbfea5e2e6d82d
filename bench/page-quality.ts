import { existsSync } from 'node:fs';
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { median, signUpOwner } from './bench-api.js';
import { startSlipway } from './http-load.js';

const CHROMIUM = process.env.SLIPWAY_CHROMIUM ?? '/usr/bin/chromium';

/** The goal for the signed-in overview's performance score. */
export const PAGE_QUALITY_GOAL = 0.9;

/** Medians of `runs` audits of one page. */
export interface PageAudit {
  page: string;
  runs: number;
  /** Runs Lighthouse could not finish, by its error code. */
  failedRuns: string[];
  /** Lighthouse's performance score, 0-1 (its default mobile settings: simulated slow 4G, 4× CPU). */
  performance: number;
  /** The lowest score of the runs. */
  worst: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  /** Audits of the performance category that did not pass in the last run, by id. */
  failing: string[];
}

/**
 * Lighthouse (the page-quality audit Chrome ships) on the login page and on the signed-in
 * overview, served by the built server on loopback, in Debian's Chromium.
 */
export async function pageQuality(runs: number): Promise<PageAudit[] | null> {
  if (!existsSync(CHROMIUM)) return null;
  const slipway = await startSlipway();
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const owner = await signUpOwner(slipway.url);
    const audits: PageAudit[] = [];
    for (const [page, path, headers] of [
      ['login', '/login', {}],
      ['overview (signed in)', '/', { Cookie: owner.cookie }],
    ] as const) {
      const lhrs: Result[] = [];
      const failedRuns: string[] = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(`${slipway.url}${path}`, {
          port: chrome.port,
          onlyCategories: ['performance'],
          extraHeaders: headers,
          output: 'json',
          logLevel: 'error',
        });
        if (!result) throw new Error(`lighthouse gave no result for ${path}`);
        // A run Lighthouse could not finish (it says why) has no score: counted, not averaged.
        if (result.lhr.runtimeError) failedRuns.push(result.lhr.runtimeError.code);
        else lhrs.push(result.lhr);
      }
      if (lhrs.length === 0)
        throw new Error(`every audit of ${path} failed: ${failedRuns.join(', ')}`);
      const metric = (id: string) =>
        median(lhrs.map((lhr) => lhr.audits[id]?.numericValue ?? Number.NaN));
      const scores = lhrs.map((lhr) => lhr.categories.performance?.score ?? 0);
      audits.push({
        page,
        runs: lhrs.length,
        failedRuns,
        performance: median(scores),
        worst: Math.min(...scores),
        firstContentfulPaintMs: metric('first-contentful-paint'),
        largestContentfulPaintMs: metric('largest-contentful-paint'),
        totalBlockingTimeMs: metric('total-blocking-time'),
        cumulativeLayoutShift: metric('cumulative-layout-shift'),
        failing: Object.values(lhrs[lhrs.length - 1].audits)
          .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
          .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`),
      });
    }
    return audits;
  } finally {
    chrome.kill();
    await slipway.stop();
  }
}

export function printPageQuality(audits: PageAudit[] | null): void {
  console.log('\ndashboard: page-quality audit (Lighthouse performance, mobile defaults)');
  if (!audits) {
    console.log(`  skipped (no chromium at ${CHROMIUM})`);
    return;
  }
  for (const a of audits) {
    console.log(
      `  ${a.page.padEnd(22)} score ${a.performance.toFixed(2)} (median of ${a.runs}, worst ${a.worst.toFixed(2)})  CLS ${a.cumulativeLayoutShift.toFixed(3)}  FCP ${a.firstContentfulPaintMs.toFixed(0)} ms  LCP ${a.largestContentfulPaintMs.toFixed(0)} ms  TBT ${a.totalBlockingTimeMs.toFixed(0)} ms`,
    );
    if (a.failing.length) console.log(`    below 0.9: ${a.failing.join(', ')}`);
    if (a.failedRuns.length) console.log(`    runs that failed: ${a.failedRuns.join(', ')}`);
  }
}
