import type { LoadResult } from '../http-load.js';

/** How the Benchmarks table writes figures, ratios and verdicts. */

export const f = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits });
export const ms = (n: number, digits = 2) => `${f(n, digits)} ms`;
/** Seconds, with two decimals below 10 s so that a short run does not read 0 s. */
export const s = (n: number) => `${f(n, n < 10 ? 2 : 1)} s`;
/** A ratio with enough digits to tell small ones apart. */
export const x = (a: number, b: number) => `${f(a / b, a / b < 0.1 ? 3 : 2)} x`;
export const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
export const clean = (ok: boolean) => (ok ? 'clean' : 'FAILED');
export const rps = (r: LoadResult) => `${f(r.requestsPerSecond)} req/s`;
/** Failed requests would make the figure meaningless: they are shown whenever there are any. */
export const load = (r: LoadResult) =>
  `${rps(r)}, p99 ${ms(r.p99Ms, 0)}` +
  (r.errors + r.non2xx > 0 ? ` (errors ${r.errors}, non-2xx ${r.non2xx})` : '');
