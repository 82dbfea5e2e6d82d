import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchAppend } from './append.bench.js';
import { benchAuditVerify } from './audit-verify.bench.js';
import { benchCommandLane, printCommandLane } from './command-lane.bench.js';
import { benchComposeParse } from './compose-parse.bench.js';
import { benchDrains, printDrains } from './drains.bench.js';
import { benchMetrics, printMetrics } from './metrics.bench.js';
import { benchDashboard } from './dashboard.bench.js';
import { benchEdgeDeploys, printEdgeDeploys } from './edge-deploys.bench.js';
import { benchGitPush, printGitPush } from './git-push.bench.js';
import { benchHealth } from './health.bench.js';
import { benchLogStream, printLogStream } from './log-stream.bench.js';
import { benchLoginTiming } from './login-timing.bench.js';
import { benchProjectionRebuild, printProjectionRebuild } from './projection-rebuild.bench.js';
import { benchPostgres } from './postgres-stores.js';
import { benchReadLane, printReadLane } from './read-lane.bench.js';
import { benchRunnerSteps, printRunnerSteps } from './runner-steps.bench.js';
import {
  appendRows,
  auditRows,
  commandLanePostgresRows,
  commandLaneRows,
  composeParseRows,
  drainsRows,
  metricsRows,
  dashboardRows,
  edgeDeploysRows,
  gitPushRows,
  healthRows,
  logStreamRows,
  loginRows,
  projectionRebuildRows,
  readLaneRows,
  runnerStepsRows,
} from './bench-rows.js';
import { writeBenchTable, type BenchRow } from './bench-table.js';

const TABLE_FILE = fileURLToPath(new URL('../../docs/contributors.md', import.meta.url));

/**
 * Reproducible, bounded benchmarks on loopback. Figures are ratios against a baseline
 * measured in the same run, so they compare across machines; absolute numbers are context.
 * BENCH_SECONDS (default 5) sets the length of each HTTP measurement; BENCH_DEPLOYMENTS
 * (default 10,000) the history of the command-lane, runner-steps and projection-rebuild runs;
 * BENCH_EDGE_DEPLOYS (default 20) the gapless deploys through the edge proxy (on the tests'
 * Docker engine, which it starts); BENCH_GIT_PUSHES (default 5) the pushes built and deployed
 * from a git host on loopback; BENCH_POSTGRES=off leaves out the read and command lanes on
 * PostgreSQL (a server the benchmark starts, Debian's binaries).
 * At the end the Benchmarks table of docs/contributors.md is rewritten with this run's figures,
 * unless BENCH_TABLE=off (a run on a busy machine).
 */
async function main(): Promise<void> {
  const settings = {
    BENCH_SECONDS: Number(process.env.BENCH_SECONDS ?? 5),
    BENCH_DEPLOYMENTS: Number(process.env.BENCH_DEPLOYMENTS ?? 10_000),
    BENCH_RUNS: Number(process.env.BENCH_RUNS ?? 7),
    BENCH_AUDIT_EVENTS: Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000),
    BENCH_LOG_LINES: Number(process.env.BENCH_LOG_LINES ?? 10_000),
    BENCH_LOG_CROSS_LINES: Number(process.env.BENCH_LOG_CROSS_LINES ?? 1_000),
    BENCH_EDGE_DEPLOYS: Number(process.env.BENCH_EDGE_DEPLOYS ?? 20),
    BENCH_GIT_PUSHES: Number(process.env.BENCH_GIT_PUSHES ?? 5),
    BENCH_POSTGRES: process.env.BENCH_POSTGRES === 'off' ? 'off' : 'on',
  };
  const seconds = settings.BENCH_SECONDS;
  const rows: BenchRow[] = [];
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en-US', { maximumFractionDigits: digits });
  console.log(
    `Slipway benchmarks - node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}`,
  );

  const health = await benchHealth(seconds, 20);
  rows.push(...healthRows(health));
  console.log('\nhealth over HTTP (20 connections, loopback)');
  console.log(
    `  bare node:http   ${fmt(health.bare.requestsPerSecond)} req/s   p99 ${health.bare.p99Ms} ms`,
  );
  console.log(
    `  bare Express 5   ${fmt(health.express.requestsPerSecond)} req/s   p99 ${health.express.p99Ms} ms   (context: the platform alone)`,
  );
  console.log(
    `  slipway health   ${fmt(health.slipway.requestsPerSecond)} req/s   p99 ${health.slipway.p99Ms} ms   errors ${health.slipway.errors}, non-2xx ${health.slipway.non2xx}`,
  );
  console.log(
    `  ratio            throughput ${fmt(health.throughputRatio, 3)} x bare, p99 ${fmt(health.p99Ratio, 2)} x bare`,
  );
  const vsExpress = health.slipway.requestsPerSecond / health.express.requestsPerSecond;
  console.log(`                   throughput ${fmt(vsExpress, 2)} x bare Express 5`);

  // Beside the embedded stores, the same server on PostgreSQL (BENCH_POSTGRES=off: not).
  const postgres = settings.BENCH_POSTGRES === 'off' ? null : await benchPostgres();
  try {
    const readLane = await benchReadLane(seconds, 10, 3, await postgres?.database());
    printReadLane(readLane);
    rows.push(...readLaneRows(readLane));
  } catch (error) {
    await postgres?.stop();
    throw error;
  }

  console.log('\nevent append, SQLite WAL, synchronous=FULL');
  const single = await benchAppend(1, 5, 20_000);
  const batched = await benchAppend(100, 5, 1_000);
  for (const result of [single, batched]) {
    console.log(
      `  ${result.mode.padEnd(22)} ${fmt(result.eventsPerSecond)} events/s  ` +
        `(${fmt(result.appendsPerSecond)} appends/s, ${result.events} events in ${fmt(result.seconds, 2)} s)`,
    );
  }
  rows.push(...appendRows(single, batched));
  const ratio = batched.eventsPerSecond / single.eventsPerSecond;
  console.log(
    `  ratio                  batches write ${fmt(ratio, 1)} x the events/s of single appends`,
  );

  const deployments = settings.BENCH_DEPLOYMENTS;
  const commandLane = await benchCommandLane(deployments, seconds);
  printCommandLane(commandLane);
  rows.push(...commandLaneRows(commandLane));
  if (postgres) {
    try {
      const onPostgres = await benchCommandLane(deployments, seconds, await postgres.database());
      printCommandLane(onPostgres, 'PostgreSQL');
      rows.push(...commandLanePostgresRows(onPostgres, commandLane));
    } finally {
      await postgres.stop();
    }
  }
  const drains = await benchDrains(seconds, 3);
  printDrains(drains);
  rows.push(...drainsRows(drains));
  const metrics = await benchMetrics();
  printMetrics(metrics);
  rows.push(...metricsRows(metrics));
  const runnerSteps = await benchRunnerSteps(deployments);
  printRunnerSteps(runnerSteps);
  rows.push(...runnerStepsRows(runnerSteps));
  const rebuild = await benchProjectionRebuild(deployments);
  printProjectionRebuild(rebuild);
  rows.push(...projectionRebuildRows(rebuild));
  console.log(
    '\ncompose parsing, keys vs time (limits lifted; the service refuses > 10,000 nodes)',
  );
  const compose = benchComposeParse();
  rows.push(...composeParseRows(compose));
  for (const row of compose) {
    const library = row.libraryDefaultMs === null ? 'skipped' : `${fmt(row.libraryDefaultMs)} ms`;
    console.log(
      `  ${fmt(row.keys).padStart(6)} keys ${fmt(row.bytes / 1024).padStart(5)} KiB   bounded ${fmt(row.boundedMs).padStart(5)} ms   library default ${library}`,
    );
  }

  const login = await benchLoginTiming(40);
  rows.push(...loginRows(login));
  console.log(`\nlogin refusals (${login.samples} each, interleaved, sequential)`);
  console.log(`  wrong email      median ${login.wrongEmailMedianMs.toFixed(1)} ms`);
  console.log(`  wrong password   median ${login.wrongPasswordMedianMs.toFixed(1)} ms`);
  console.log(`  ratio            ${login.ratio.toFixed(3)} (1.000 = indistinguishable)`);

  rows.push(...dashboardRows(await benchDashboard(settings.BENCH_RUNS)));

  const audit = await benchAuditVerify(settings.BENCH_AUDIT_EVENTS);
  rows.push(...auditRows(audit));
  console.log(`\naudit trail over ${fmt(audit.events)} events (BENCH_AUDIT_EVENTS)`);
  console.log(`  seal (hash chain + links + signed checkpoint)  ${fmt(audit.sealSeconds, 1)} s`);
  console.log(
    `  verify                                         ${fmt(audit.verifySeconds, 1)} s = ${fmt(audit.verifyEventsPerSecond)} events/s (${audit.ok ? 'clean' : 'FAILED'})`,
  );
  console.log(
    `  baseline: read every event back, no hashing    ${fmt(audit.readSeconds, 1)} s (verify = ${fmt(audit.verifySeconds / audit.readSeconds, 1)} x reading)`,
  );
  console.log(
    `  verify the last 1,000 events from the checkpoint ${fmt(audit.rangeSeconds * 1000)} ms (${audit.rangeOk ? 'clean' : 'FAILED'})`,
  );
  const perSecond = (seconds: number) => fmt(audit.events / seconds);
  console.log(
    `  export (NDJSON, streamed to a file)            ${fmt(audit.exportSeconds, 1)} s = ${perSecond(audit.exportSeconds)} events/s, ${fmt(audit.exportBytes / 1e6)} MB`,
  );
  console.log(
    `  offline verification of that file             ${fmt(audit.offlineSeconds, 1)} s = ${perSecond(audit.offlineSeconds)} events/s (${audit.offlineOk ? 'clean' : 'FAILED'})`,
  );

  const edge = await benchEdgeDeploys(settings.BENCH_EDGE_DEPLOYS);
  printEdgeDeploys(edge);
  rows.push(...edgeDeploysRows(edge));

  const gitPush = await benchGitPush(settings.BENCH_GIT_PUSHES);
  printGitPush(gitPush);
  rows.push(...gitPushRows(gitPush));

  const logStream = await benchLogStream(settings.BENCH_LOG_LINES, settings.BENCH_LOG_CROSS_LINES);
  printLogStream(logStream, 250);
  rows.push(...logStreamRows(logStream));

  if (process.env.BENCH_TABLE === 'off') {
    console.log('\nBENCH_TABLE=off: docs/contributors.md left as it is');
    return;
  }
  await writeBenchTable(TABLE_FILE, rows, {
    node: process.version,
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    date: new Date().toISOString().slice(0, 10),
    settings,
  });
  console.log(`\nBenchmarks table written to ${TABLE_FILE} (BENCH_TABLE=off skips it)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
