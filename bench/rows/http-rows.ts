import type { DrainsResult } from '../drains.bench.js';
import { f, load, met, ms, rps, x } from './row-format.js';
import { GOALS } from './goals.js';
import type { BenchRow } from '../bench-table.js';
import type { CommandLaneResult } from '../command-lane.bench.js';
import type { HealthBenchResult } from '../health.bench.js';
import {
  READ_CALLS,
  READ_GOALS,
  READ_P99_GOAL_MS,
  type ReadLaneResult,
} from '../read-lane.bench.js';

/** Rows of the HTTP benchmarks: health, the read lane and the command lane. */

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
  const rows = READ_CALLS.map((call, i) => {
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
  return [...rows, ...readLanePostgresRows(r)];
}

/** The same reads from a server whose stores are in PostgreSQL, beside the embedded stores'. */
function readLanePostgresRows(r: ReadLaneResult): BenchRow[] {
  const onPostgres = r.onPostgres;
  if (!onPostgres) return [];
  return READ_CALLS.map((call) => ({
    measurement: `\`${call}\` with the stores in PostgreSQL, same rounds`,
    result: load(onPostgres[call]),
    comparedWith:
      `the embedded stores: ${rps(r.calls[call])} (${x(onPostgres[call].requestsPerSecond, r.calls[call].requestsPerSecond)}); ` +
      `bare Express 5: ${f((100 * onPostgres[call].requestsPerSecond) / r.express.requestsPerSecond)}%`,
  }));
}

/** The command lane again with the stores in PostgreSQL, beside the embedded stores' run. */
export function commandLanePostgresRows(
  r: CommandLaneResult,
  sqlite: CommandLaneResult,
): BenchRow[] {
  return [
    {
      measurement: `sequential \`triggerDeploy\` with the stores in PostgreSQL, ${f(r.deployments)} past deployments`,
      result: `median ${ms(r.lastMedianMs)} (the last 100)`,
      comparedWith: `deployments 1-100: ${ms(r.firstMedianMs)} (${x(r.lastMedianMs, r.firstMedianMs)}); the embedded stores: ${ms(sqlite.lastMedianMs)}`,
    },
    {
      measurement: '10 clients triggering deploys on one service, PostgreSQL',
      result: load(r.oneService),
      comparedWith: `the embedded stores: ${rps(sqlite.oneService)} (${x(r.oneService.requestsPerSecond, sqlite.oneService.requestsPerSecond)})`,
    },
    {
      measurement: '10 clients triggering deploys on 10 services, PostgreSQL',
      result: load(r.tenServices),
      comparedWith: `the embedded stores: ${rps(sqlite.tenServices)} (${x(r.tenServices.requestsPerSecond, sqlite.tenServices.requestsPerSecond)})`,
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

export function drainsRows(r: DrainsResult): BenchRow[] {
  return [
    {
      measurement: `10 clients triggering deploys, a drain whose receiver answers 503 (\`bench/drains.bench.ts\`, median of ${r.rounds} interleaved rounds)`,
      result: `${f(r.failing)} req/s`,
      comparedWith: `no drain: ${f(r.none)} req/s (${x(r.failing, r.none)})`,
    },
    {
      measurement: '10 clients triggering deploys, a drain delivering the whole history meanwhile',
      result: `${f(r.delivering)} req/s`,
      comparedWith: `no drain: ${f(r.none)} req/s (${x(r.delivering, r.none)})`,
    },
    {
      measurement: 'a new drain catching up with the whole history (audit entries, OTLP)',
      result: `${f(r.catchUpRecordsPerSecond)} records/s`,
      comparedWith: `${f(r.records)} records`,
    },
  ];
}
