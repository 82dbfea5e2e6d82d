import type { AppendBenchResult } from './append.bench.js';
import type { AuditBenchResult } from './audit-verify.bench.js';
import type { BenchRow } from './bench-table.js';
import type { CommandLaneResult } from './command-lane.bench.js';
import type { ComposeParseRow } from './compose-parse.bench.js';
import { FIRST_PAGE_JS_GOAL_BYTES, type DashboardResult } from './dashboard.bench.js';
import { PAGE_QUALITY_GOAL, type PageAudit } from './page-quality.js';
import type { EdgeDeploysResult } from './edge-deploys.bench.js';
import type { GitPushResult } from './git-push.bench.js';
import type { HealthBenchResult } from './health.bench.js';
import type { LoadResult } from './http-load.js';
import {
  READ_CALLS,
  READ_GOALS,
  READ_P99_GOAL_MS,
  type ReadLaneResult,
} from './read-lane.bench.js';
import type { LogStreamResult } from './log-stream.bench.js';
import type { LoginTimingResult } from './login-timing.bench.js';
import type { ProjectionRebuildResult, RebuildRun } from './projection-rebuild.bench.js';
import type { RunnerStepsResult } from './runner-steps.bench.js';

/**
 * The figures of each benchmark as rows of the Benchmarks table: the result, and what it is
 * compared with in the same run (a bare server, the first deployments, reading without
 * hashing) or a goal of the issue that asked for it, with the ratio.
 */

/** The goals the table checks, from the issues that set them. */
export const GOALS = {
  triggersOneService: 300,
  triggersOneServiceP99Ms: 100,
  triggersTenServices: 600,
  idleRssMb: 100,
  loadedRssMb: 160,
  rebuildEventsPerSecond: 50_000,
  logLineP99Ms: 50,
  edgeFailedRequests: 0,
  edgeRequests: 10_000,
  edgeCutoverMs: 1000,
  /** A push of a small image serves within this many times a prebuilt image's deploy. */
  gitPushVsImageDeploy: 2,
};

const f = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const ms = (n: number, digits = 2) => `${f(n, digits)} ms`;
/** Seconds, with two decimals below 10 s so that a short run does not read 0 s. */
const s = (n: number) => `${f(n, n < 10 ? 2 : 1)} s`;
/** A ratio with enough digits to tell small ones apart. */
const x = (a: number, b: number) => `${f(a / b, a / b < 0.1 ? 3 : 2)} x`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const clean = (ok: boolean) => (ok ? 'clean' : 'FAILED');
const rps = (r: LoadResult) => `${f(r.requestsPerSecond)} req/s`;
/** Failed requests would make the figure meaningless: they are shown whenever there are any. */
const load = (r: LoadResult) =>
  `${rps(r)}, p99 ${ms(r.p99Ms, 0)}` +
  (r.errors + r.non2xx > 0 ? ` (errors ${r.errors}, non-2xx ${r.non2xx})` : '');

export function healthRows(h: HealthBenchResult): BenchRow[] {
  return [
    {
      measurement:
        '`health` over HTTP, ' + `${h.connections} connections (\`bench/health.bench.ts\`)`,
      result: load(h.slipway),
      comparedWith:
        `bare \`node:http\`: ${load(h.bare)} (Slipway ${x(h.slipway.requestsPerSecond, h.bare.requestsPerSecond)}); ` +
        `bare Express 5: ${load(h.express)} (${x(h.slipway.requestsPerSecond, h.express.requestsPerSecond)})`,
    },
    {
      measurement: "start to first `health` answer, polled every 50 ms (`npm start`'s flags)",
      result: ms(h.startMs.slipway, 0),
      comparedWith:
        `a bare \`node:http\` process to listening: ${ms(h.startMs.bare, 0)}; ` +
        `bare Express 5: ${ms(h.startMs.express, 0)}`,
    },
  ];
}

export function readLaneRows(r: ReadLaneResult): BenchRow[] {
  const express = r.express.requestsPerSecond;
  return READ_CALLS.map((call, i) => {
    const c = r.calls[call];
    const share = c.requestsPerSecond / express;
    const ok = share >= READ_GOALS[call] && c.p99Ms < READ_P99_GOAL_MS;
    const top = [...r.layers[call]]
      .sort((a, b) => b.share - a.share)
      .slice(0, 3)
      .map((l) => `${l.layer} ${f(100 * l.share)}%`)
      .join(', ');
    return {
      measurement:
        `\`${call}\` over HTTP, ${r.connections} connections` +
        (i === 0
          ? `, medians of ${r.rounds} interleaved rounds, \`npm start\`'s flags on both (\`bench/read-lane.bench.ts\`)`
          : ''),
      result: `${load(c)}; CPU: ${top}`,
      comparedWith:
        `bare Express 5: ${rps(r.express)} (${f(100 * share)}%); goal ≥ ${f(100 * READ_GOALS[call])}% ` +
        `with p99 < ${READ_P99_GOAL_MS} ms: ${met(ok)}`,
    };
  });
}

export function appendRows(single: AppendBenchResult, batched: AppendBenchResult): BenchRow[] {
  return [
    {
      measurement: 'event appends, single events, `synchronous=FULL` (`bench/append.bench.ts`)',
      result: `${f(single.eventsPerSecond)} events/s (one fsync each)`,
      comparedWith: '',
    },
    {
      measurement: `event appends, ${batched.mode}`,
      result: `${f(batched.eventsPerSecond)} events/s`,
      comparedWith: `single-event appends: ${x(batched.eventsPerSecond, single.eventsPerSecond)}`,
    },
  ];
}

export function commandLaneRows(r: CommandLaneResult): BenchRow[] {
  const express = r.express.requestsPerSecond;
  const one = r.oneService;
  const ten = r.tenServices;
  const oneMet =
    one.requestsPerSecond >= GOALS.triggersOneService && one.p99Ms < GOALS.triggersOneServiceP99Ms;
  return [
    {
      measurement: `sequential \`triggerDeploy\`, one service, ${f(r.deployments)} past deployments (\`bench/command-lane.bench.ts\`)`,
      result: `median ${ms(r.lastMedianMs)} (the last 100)`,
      comparedWith: `deployments 1-100: median ${ms(r.firstMedianMs)} (${x(r.lastMedianMs, r.firstMedianMs)})`,
    },
    {
      measurement: '10 clients triggering deploys on one service',
      result: load(one),
      comparedWith:
        `goal ${f(GOALS.triggersOneService)} req/s with p99 < ${GOALS.triggersOneServiceP99Ms} ms: ${met(oneMet)}, ${x(one.requestsPerSecond, GOALS.triggersOneService)}; ` +
        `bare Express 5: ${rps(r.express)} (${x(one.requestsPerSecond, express)}); bare \`node:http\`: ${rps(r.bare)}`,
    },
    {
      measurement: '10 clients triggering deploys on 10 services',
      result: load(ten),
      comparedWith:
        `goal ${f(GOALS.triggersTenServices)} req/s: ${met(ten.requestsPerSecond >= GOALS.triggersTenServices)}, ${x(ten.requestsPerSecond, GOALS.triggersTenServices)}; ` +
        `bare Express 5: ${x(ten.requestsPerSecond, express)}`,
    },
    {
      measurement: 'server RSS, 1 s after the first `health` answer',
      result: `${f(r.idleRssMb, 1)} MB`,
      comparedWith: `goal < ${GOALS.idleRssMb} MB: ${met(r.idleRssMb < GOALS.idleRssMb)}`,
    },
    {
      measurement: 'server RSS after the command-lane load',
      result: `${f(r.afterLoadRssMb, 1)} MB`,
      comparedWith: `goal < ${GOALS.loadedRssMb} MB: ${met(r.afterLoadRssMb < GOALS.loadedRssMb)}`,
    },
  ];
}

export function runnerStepsRows(r: RunnerStepsResult): BenchRow[] {
  const after = `${f(r.deployments + 1)}-${f(r.deployments + r.measured)}`;
  return [
    {
      measurement: `runner step calls, service with ${f(r.deployments)} past deployments (\`bench/runner-steps.bench.ts\`)`,
      result: `median step call ${ms(r.after.stepMedianMs)}, a whole deployment's calls and log writes ${ms(r.after.deploymentMedianMs)} (deployments ${after})`,
      comparedWith:
        `deployments 1-${f(r.measured)}: ${ms(r.first.stepMedianMs)} (${x(r.after.stepMedianMs, r.first.stepMedianMs)}) ` +
        `and ${ms(r.first.deploymentMedianMs)} (${x(r.after.deploymentMedianMs, r.first.deploymentMedianMs)})`,
    },
    {
      measurement: 'the first command on a stream not yet cached, which folds it once',
      result: `${ms(r.firstCommandAfterHistoryMs, 0)} for ${f(r.appendedEvents)} events`,
      comparedWith: `the next commands, on the cached stream: median ${ms(r.laterCommandsAfterHistoryMs)}`,
    },
  ];
}

export function projectionRebuildRows(r: ProjectionRebuildResult): BenchRow[] {
  const perSecond = (run: RebuildRun) => run.events / run.seconds;
  const goal = (run: RebuildRun) =>
    `goal ${f(GOALS.rebuildEventsPerSecond)} events/s: ${met(perSecond(run) >= GOALS.rebuildEventsPerSecond)}, ${x(perSecond(run), GOALS.rebuildEventsPerSecond)}`;
  const oneProcess = (label: string, run: RebuildRun): BenchRow => ({
    measurement: `the same rebuild in one process, ${label}`,
    result: `${f(perSecond(run))} events/s, RSS peak ${f(run.rssSampledPeakMb)} MB`,
    comparedWith: goal(run),
  });
  const child = r.asServer.childRssSampledPeakMb;
  // Below SLIPWAY_CATCH_UP_PROCESS_EVENTS (a short run) the server catches up itself.
  const catchUp =
    child > 0
      ? `the catch-up process peaks at ${f(child)} MB and is gone at the end`
      : 'no catch-up process: the history is below `SLIPWAY_CATCH_UP_PROCESS_EVENTS`';
  return [
    {
      measurement: `projection rebuild from position 0, ${f(r.asServer.events)} events, as the server (\`bench/projection-rebuild.bench.ts\`)`,
      result:
        `${f(perSecond(r.asServer))} events/s; the server's RSS peak ${f(r.asServer.rssSampledPeakMb)} MB meanwhile ` +
        `(the benchmark's stand-in: the runner, without HTTP); ${catchUp}`,
      comparedWith: goal(r.asServer),
    },
    oneProcess("Node's defaults", r.defaults),
    oneProcess("the server's flags", r.inServerFlags),
  ];
}

export function composeParseRows(rows: ComposeParseRow[]): BenchRow[] {
  const size = (row: ComposeParseRow) => `${f(row.keys)} keys`;
  /** How time grows with the keys, from the first size to the last: 1 linear, 2 quadratic. */
  const growth = (points: { keys: number; ms: number }[]) => {
    const [a, b] = [points[0], points[points.length - 1]];
    return `grows as keys^${f(Math.log(b.ms / a.ms) / Math.log(b.keys / a.keys), 1)}`;
  };
  const library = rows.flatMap((row) =>
    row.libraryDefaultMs === null ? [] : [{ keys: row.keys, ms: row.libraryDefaultMs }],
  );
  return [
    {
      measurement: 'compose parse, bounded parser, limits lifted (`bench/compose-parse.bench.ts`)',
      result:
        rows.map((row) => `${size(row)} ${ms(row.boundedMs, 0)}`).join('; ') +
        ` (${f(rows[rows.length - 1].bytes / 1024)} KiB): ` +
        growth(rows.map((row) => ({ keys: row.keys, ms: row.boundedMs }))),
      comparedWith:
        "the YAML library's defaults (`uniqueKeys: true`): " +
        library.map((p) => `${f(p.keys)} keys ${ms(p.ms, 0)}`).join('; ') +
        (library.length > 1 ? `: ${growth(library)}` : ''),
    },
  ];
}

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

export function auditRows(a: AuditBenchResult): BenchRow[] {
  const perSecond = (seconds: number) => `${f(a.events / seconds)} events/s`;
  return [
    {
      measurement: `audit chain: seal ${f(a.events)} events (\`bench/audit-verify.bench.ts\`)`,
      result: s(a.sealSeconds),
      comparedWith: `appending them: ${s(a.appendSeconds)} (sealing takes ${x(a.sealSeconds, a.appendSeconds)} as long)`,
    },
    {
      measurement: 'audit chain: verify them',
      result: `${s(a.verifySeconds)} = ${perSecond(a.verifySeconds)}, ${clean(a.ok)}`,
      comparedWith: `reading every event back without hashing: ${s(a.readSeconds)} (verify takes ${x(a.verifySeconds, a.readSeconds)} as long)`,
    },
    {
      measurement: 'audit chain: verify a range from its checkpoint',
      result: `the last 1,000 events: ${ms(a.rangeSeconds * 1000, 0)}, ${clean(a.rangeOk)}`,
      comparedWith: '',
    },
    {
      measurement: 'audit trail export, NDJSON to a file',
      result: `${s(a.exportSeconds)} = ${perSecond(a.exportSeconds)}, ${f(a.exportBytes / 1e6)} MB`,
      comparedWith: '',
    },
    {
      measurement: 'offline verification of that file (CLI code, constant memory)',
      result: `${s(a.offlineSeconds)} = ${perSecond(a.offlineSeconds)}, ${clean(a.offlineOk)}`,
      comparedWith: `verifying in the server (above): ${x(a.offlineSeconds, a.verifySeconds)} as long`,
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
