import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median, readyService, rpc, signUpOwner } from './bench-api.js';
import {
  serverRuntime,
  spawnListening,
  startSlipway,
  stop,
  type LoadResult,
  type RunningSlipway,
} from './http-load.js';
import { benchPostgres } from './postgres-stores.js';
import { monotonicMicros, requestLayers, type LayerShare } from './request-layers.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The reads every page, CLI call and agent pays for, as the goals name them. */
export const READ_CALLS = ['health', 'viewer', 'recentDeployments'] as const;
export type ReadCall = (typeof READ_CALLS)[number];

/** Each call's share of bare Express 5's throughput the goals ask for, and its p99. */
export const READ_GOALS: Record<ReadCall, number> = {
  health: 0.8,
  viewer: 0.6,
  recentDeployments: 0.5,
};
export const READ_P99_GOAL_MS = 10;

export interface ReadLaneResult {
  connections: number;
  rounds: number;
  /** Medians over the rounds. */
  express: LoadResult;
  calls: Record<ReadCall, LoadResult>;
  /** Per call: where one request's CPU time goes, from a profile of its own run. */
  layers: Record<ReadCall, LayerShare[]>;
  /** The same calls to a server whose stores are in PostgreSQL, in the same rounds. */
  onPostgres: Record<ReadCall, LoadResult> | null;
}

interface Target {
  url: string;
  headers: Record<string, string>;
}

async function measure(target: Target, seconds: number, connections: number): Promise<LoadResult> {
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

const medianOf = (runs: LoadResult[]): LoadResult => ({
  requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
  p99Ms: median(runs.map((r) => r.p99Ms)),
  errors: runs.reduce((n, r) => n + r.errors, 0),
  non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
});

/**
 * A Slipway with an owner, a read-only token and 25 deployments (queued: no runner), and the
 * three reads addressed as a client sends them: `health` without credentials, `viewer` and
 * `recentDeployments` (20 rows) with the bearer token.
 */
async function readTargets(slipway: RunningSlipway): Promise<Record<ReadCall, Target>> {
  const session = await signUpOwner(slipway.url);
  const { token } = await rpc<{ token: string }>(session, 'createToken', {
    tokenName: 'reader',
    scopes: ['deploy:read', 'service:read', 'server:read'],
  });
  const serviceId = await readyService(session, 'api');
  for (let i = 0; i < 25; i++)
    await rpc(session, 'triggerDeploy', { serviceId, imageTag: `ghcr.io/acme/api:1.0.${i}` });
  const bearer = { authorization: `Bearer ${token}` };
  const input = encodeURIComponent(JSON.stringify({ json: { limit: 20 } }));
  return {
    health: { url: `${slipway.url}/trpc/health`, headers: {} },
    viewer: { url: `${slipway.url}/trpc/viewer`, headers: bearer },
    recentDeployments: {
      url: `${slipway.url}/trpc/recentDeployments?input=${input}`,
      headers: bearer,
    },
  };
}

const QUIET = { SLIPWAY_RUNNER: 'off', SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS: '0' };

/**
 * The read lane against bare Express 5 started with the same Node flags and environment as the
 * server (`npm start`'s), in interleaved rounds on one machine; then, per call, a run of a
 * server under `--cpu-prof` whose profile tells where a request's time goes.
 */
export async function benchReadLane(
  seconds: number,
  connections = 10,
  rounds = 3,
  /** The environment of a second server whose stores are in PostgreSQL (see postgres-stores.ts). */
  postgres?: Record<string, string>,
): Promise<ReadLaneResult> {
  const runtime = serverRuntime();
  const express = await spawnListening(here('./bare-express.js'), runtime.env, runtime.flags);
  const slipway = await startSlipway(QUIET);
  const onPostgres = postgres ? await startSlipway({ ...QUIET, ...postgres }) : null;
  const runs = {
    express: [] as LoadResult[],
    calls: new Map<ReadCall, LoadResult[]>(),
    postgres: new Map<ReadCall, LoadResult[]>(),
  };
  const record = (runsOf: Map<ReadCall, LoadResult[]>, call: ReadCall, result: LoadResult) =>
    runsOf.set(call, [...(runsOf.get(call) ?? []), result]);
  try {
    const targets = await readTargets(slipway);
    const postgresTargets = onPostgres ? await readTargets(onPostgres) : null;
    const bare = { url: `http://127.0.0.1:${express.port}/`, headers: {} };
    for (const call of READ_CALLS) {
      await measure(targets[call], 1, connections); // warm-up
      if (postgresTargets) await measure(postgresTargets[call], 1, connections);
    }
    await measure(bare, 1, connections);
    for (let round = 0; round < rounds; round++) {
      runs.express.push(await measure(bare, seconds, connections));
      for (const call of READ_CALLS) {
        record(runs.calls, call, await measure(targets[call], seconds, connections));
        if (postgresTargets)
          record(runs.postgres, call, await measure(postgresTargets[call], seconds, connections));
      }
    }
  } finally {
    await slipway.stop();
    await onPostgres?.stop();
    await stop(express.child);
  }
  const layers = {} as Record<ReadCall, LayerShare[]>;
  for (const call of READ_CALLS) layers[call] = await profiledLayers(call, seconds, connections);
  return {
    connections,
    rounds,
    express: medianOf(runs.express),
    calls: Object.fromEntries(
      READ_CALLS.map((call) => [call, medianOf(runs.calls.get(call) ?? [])]),
    ) as Record<ReadCall, LoadResult>,
    layers,
    onPostgres: onPostgres
      ? (Object.fromEntries(
          READ_CALLS.map((call) => [call, medianOf(runs.postgres.get(call) ?? [])]),
        ) as Record<ReadCall, LoadResult>)
      : null,
  };
}

/** One call's load on a server of its own under `--cpu-prof`: its layers. */
async function profiledLayers(
  call: ReadCall,
  seconds: number,
  connections: number,
): Promise<LayerShare[]> {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-profile-'));
  try {
    const slipway = await startSlipway(QUIET, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    let window: { from: number; to: number; requests: number };
    try {
      const target = (await readTargets(slipway))[call];
      await measure(target, 1, connections);
      const from = monotonicMicros();
      const result = await autocannon({
        url: target.url,
        headers: target.headers,
        connections,
        duration: seconds,
      });
      window = { from, to: monotonicMicros(), requests: result.requests.total };
    } finally {
      await slipway.stop();
    }
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no CPU profile');
    return requestLayers(join(dir, file), window.from, window.to, window.requests);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures as the run prints them. */
export function printReadLane(r: ReadLaneResult): void {
  const f = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
  console.log(
    `\nreads over HTTP (${r.connections} connections, medians of ${r.rounds} interleaved rounds, npm start's flags on both)`,
  );
  console.log(
    `  bare Express 5       ${f(r.express.requestsPerSecond)} req/s   p99 ${r.express.p99Ms} ms`,
  );
  for (const call of READ_CALLS) {
    const c = r.calls[call];
    const share = c.requestsPerSecond / r.express.requestsPerSecond;
    console.log(
      `  ${call.padEnd(20)} ${f(c.requestsPerSecond)} req/s   p99 ${c.p99Ms} ms   ${f(100 * share)}% of Express (goal ${f(100 * READ_GOALS[call])}%)` +
        (c.errors + c.non2xx ? `   errors ${c.errors}, non-2xx ${c.non2xx}` : ''),
    );
  }
  if (r.onPostgres) {
    for (const call of READ_CALLS) {
      const c = r.onPostgres[call];
      console.log(
        `  ${(call + ', PostgreSQL').padEnd(20)} ${f(c.requestsPerSecond)} req/s   p99 ${c.p99Ms} ms   ${f((100 * c.requestsPerSecond) / r.express.requestsPerSecond)}% of Express; ${f((100 * c.requestsPerSecond) / r.calls[call].requestsPerSecond)}% of SQLite's` +
          (c.errors + c.non2xx ? `   errors ${c.errors}, non-2xx ${c.non2xx}` : ''),
      );
    }
  }
  for (const call of READ_CALLS) {
    const total = r.layers[call].reduce((n, l) => n + l.microsPerRequest, 0);
    console.log(`  where a ${call} request's CPU time goes (${f(total)} µs in all):`);
    for (const l of [...r.layers[call]].sort((a, b) => b.share - a.share))
      console.log(
        `    ${f(100 * l.share, 1).padStart(5)}%  ${f(l.microsPerRequest).padStart(4)} µs  ${l.layer}`,
      );
  }
}

/** Runnable alone: `npm run build && node dist/bench/read-lane.bench.js`. */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const postgres = await benchPostgres();
  try {
    printReadLane(
      await benchReadLane(Number(process.env.BENCH_SECONDS ?? 5), 10, 3, await postgres.database()),
    );
  } finally {
    await postgres.stop();
  }
}
