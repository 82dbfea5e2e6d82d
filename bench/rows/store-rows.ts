import { clean, f, met, ms, s, x } from './row-format.js';
import { GOALS } from './goals.js';
import type { BenchRow } from '../bench-table.js';
import type { AppendBenchResult } from '../append.bench.js';
import type { AuditBenchResult } from '../audit-verify.bench.js';
import type { ComposeParseRow } from '../compose-parse.bench.js';
import type { MetricsBenchResult } from '../metrics.bench.js';
import type { ProjectionRebuildResult, RebuildRun } from '../projection-rebuild.bench.js';
import type { RunnerStepsResult } from '../runner-steps.bench.js';

/** Rows of the storage benchmarks: appends, runner steps, projection rebuilds, compose parsing and the audit chain. */

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
    ...(r.onPostgres
      ? [
          {
            measurement: `the same rebuild on PostgreSQL (events in \`slipway_events\`, read models into \`rm_\` tables), the server's flags`,
            result: `${f(perSecond(r.onPostgres))} events/s, RSS peak ${f(r.onPostgres.rssSampledPeakMb)} MB`,
            comparedWith: `${x(perSecond(r.onPostgres), perSecond(r.inServerFlags))} SQLite's in the same run; ${goal(r.onPostgres)}`,
          },
        ]
      : []),
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

export function metricsRows(m: MetricsBenchResult): BenchRow[] {
  const [first, last] = [m.runs[0]!, m.runs[m.runs.length - 1]!];
  const at = (r: (typeof m.runs)[number]) => `${f(r.days)} days (${f(r.documents)} documents)`;
  return [
    {
      measurement: `metrics: record one collection pass, a server and ${f(m.containers)} containers (\`bench/metrics.bench.ts\`)`,
      result: `${ms(last.recordMs)} with ${at(last)} of history`,
      comparedWith: `${at(first)}: ${ms(first.recordMs)} (${x(last.recordMs, first.recordMs)})`,
    },
    {
      measurement: "metrics: read a server's chart, 6 hours as read / 7 days of hourly means",
      result: `${ms(last.read6hMs)} / ${ms(last.read7dMs)} with ${at(last)}`,
      comparedWith: `${at(first)}: ${ms(first.read6hMs)} / ${ms(first.read7dMs)} (${x(last.read6hMs, first.read6hMs)} / ${x(last.read7dMs, first.read7dMs)})`,
    },
  ];
}
