import { f, met, ms, x } from './row-format.js';
import { GOALS } from './goals.js';
import type { BenchRow } from '../bench-table.js';
import { FIRST_PAGE_JS_GOAL_BYTES, type DashboardResult } from '../dashboard.bench.js';
import type { EdgeDeploysResult } from '../edge-deploys.bench.js';
import type { GitPushResult } from '../git-push.bench.js';
import type { LogStreamResult } from '../log-stream.bench.js';
import type { LoginTimingResult } from '../login-timing.bench.js';
import { PAGE_QUALITY_GOAL, type PageAudit } from '../page-quality.js';

/** Rows of the benchmarks seen from a client: login timing, the dashboard, log streams, the edge proxy and git pushes. */

export function loginRows(l: LoginTimingResult): BenchRow[] {
  return [
    {
      measurement: 'refused login, wrong email (`bench/login-timing.bench.ts`)',
      result: `median ${ms(l.wrongEmailMedianMs, 1)} (${l.samples} interleaved samples)`,
      comparedWith: `wrong password: median ${ms(l.wrongPasswordMedianMs, 1)}, ratio ${l.ratio.toFixed(3)} (1.000 = indistinguishable)`,
    },
  ];
}

export function dashboardRows({ size, times, quality }: DashboardResult): BenchRow[] {
  const kib = (bytes: number) => `${f(bytes / 1024, 1)} KiB`;
  return [
    {
      measurement: 'dashboard first page, JavaScript gzipped (`bench/dashboard.bench.ts`)',
      result: `${kib(size.jsGzipBytes)} (CSS ${kib(size.cssGzipBytes)}, HTML ${kib(size.htmlGzipBytes)})`,
      comparedWith: `goal < ${kib(FIRST_PAGE_JS_GOAL_BYTES)}: ${met(size.jsGzipBytes < FIRST_PAGE_JS_GOAL_BYTES)}, ${x(size.jsGzipBytes, FIRST_PAGE_JS_GOAL_BYTES)}`,
    },
    {
      measurement: times
        ? `dashboard first page in chromium, loopback, median of ${times.runs}`
        : 'dashboard first page in chromium',
      result: times
        ? `login form drawn ${ms(times.loginColdMs, 0)} after navigation from a fresh profile; signed-in overview with health ${ms(times.overviewWarmMs, 0)}`
        : 'skipped: no chromium (`SLIPWAY_CHROMIUM`)',
      comparedWith: times ? `the same with the assets cached: ${ms(times.loginWarmMs, 0)}` : '',
    },
    ...pageQualityRows(quality),
  ];
}

function pageQualityRows(quality: PageAudit[] | null): BenchRow[] {
  const [login, overview] = quality ?? [];
  if (!login || !overview)
    return [
      {
        measurement: 'dashboard page-quality audit (Lighthouse performance)',
        result: 'skipped: no chromium (`SLIPWAY_CHROMIUM`)',
        comparedWith: '',
      },
    ];
  return [
    {
      measurement: `dashboard page-quality audit, signed-in overview (Lighthouse performance, mobile defaults, median of ${overview.runs}; \`bench/page-quality.ts\`)`,
      result: `${overview.performance.toFixed(2)} (worst ${overview.worst.toFixed(2)}; LCP ${ms(overview.largestContentfulPaintMs, 0)}, TBT ${ms(overview.totalBlockingTimeMs, 0)}, CLS ${overview.cumulativeLayoutShift.toFixed(3)})`,
      comparedWith: `goal ≥ ${PAGE_QUALITY_GOAL.toFixed(2)}: ${met(overview.performance >= PAGE_QUALITY_GOAL)}; the login page: ${login.performance.toFixed(2)}`,
    },
  ];
}

export function logStreamRows(results: LogStreamResult[]): BenchRow[] {
  const label = {
    'in-process': 'log line → SSE client, runner in the process (`bench/log-stream.bench.ts`)',
    'cross-process':
      "log line → SSE client, lines appended through another SQLite connection (as a runner in a worker), heard through the file's change notifications",
  };
  return results.map((r) => ({
    measurement: label[r.mode],
    result: `${f(r.lines)} lines: p50 ${ms(r.p50Ms)}, p99 ${ms(r.p99Ms)}, max ${ms(r.maxMs, 1)}`,
    comparedWith: `goal p99 < ${GOALS.logLineP99Ms} ms: ${met(r.p99Ms < GOALS.logLineP99Ms)}, ${x(r.p99Ms, GOALS.logLineP99Ms)}`,
  }));
}

export function edgeDeploysRows(r: EdgeDeploysResult): BenchRow[] {
  const goals = GOALS;
  return [
    {
      measurement: `requests through the edge proxy during ${r.deploys} gapless deploys of a two-container stack, ${r.connections} clients (\`bench/edge-deploys.bench.ts\`)`,
      result: `${f(r.failed)} failed of ${f(r.requests)} (${r.succeeded}/${r.deploys} deploys succeeded)`,
      comparedWith: `goal ${goals.edgeFailedRequests} failed of at least ${f(goals.edgeRequests)}: ${met(r.failed <= goals.edgeFailedRequests && r.requests >= goals.edgeRequests)}`,
    },
    {
      measurement: 'cutover: new containers healthy → first answer of the new version',
      result: `median ${ms(r.cutoverMedianMs, 0)}, max ${ms(r.cutoverMaxMs, 0)}`,
      comparedWith: `goal under ${ms(goals.edgeCutoverMs, 0)}: ${met(r.cutoverMedianMs < goals.edgeCutoverMs)}`,
    },
    {
      measurement: 'p99 through the proxy during deploys',
      result: ms(r.duringP99Ms, 1),
      comparedWith: `at rest: ${ms(r.restP99Ms, 1)} (${x(r.duringP99Ms, r.restP99Ms)})`,
    },
    {
      measurement: 'a request through the proxy at rest (median, p99)',
      result: `${ms(r.restMedianMs, 1)}, ${ms(r.restP99Ms, 1)}`,
      comparedWith: `straight to the container: ${ms(r.directMedianMs, 1)}, ${ms(r.directP99Ms, 1)} (${x(r.restMedianMs, r.directMedianMs)})`,
    },
  ];
}

export function gitPushRows(r: GitPushResult): BenchRow[] {
  return [
    {
      measurement: `push to serving: a signed push → the new version answers through the edge proxy, ${r.pushes} pushes of a small image built on the server (\`bench/git-push.bench.ts\`)`,
      result: `median ${ms(r.totalMs, 0)}, max ${ms(r.maxTotalMs, 0)} (${r.succeeded}/${r.pushes} succeeded)`,
      comparedWith: `a prebuilt image's deploy of the same service: ${ms(r.imageDeployMs, 0)} (${x(r.totalMs, r.imageDeployMs)}); goal at most ${GOALS.gitPushVsImageDeploy} x: ${met(r.totalMs <= GOALS.gitPushVsImageDeploy * r.imageDeployMs)}`,
    },
    {
      measurement: 'where a push’s time goes (medians)',
      result: `accept ${ms(r.acceptMs, 0)}, queue ${ms(r.queueMs, 0)}, fetch ${ms(r.fetchMs, 0)}, build ${ms(r.buildMs, 0)}, deploy ${ms(r.deployMs, 0)}, cutover ${ms(r.cutoverMs, 0)}`,
      comparedWith: 'fetch: host key scan, SSH, one commit; deploy: new containers up and healthy',
    },
  ];
}
