import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median, readyService, rpc, signUpOwner } from './bench-api.js';
import { spawnListening, startSlipway, stop, type LoadResult } from './http-load.js';
import { benchPostgres } from './postgres-stores.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** Ten clients each triggering deploys (POST) for `seconds`, spread over the given services. */
async function concurrentTriggers(
  url: string,
  cookie: string,
  services: string[],
  seconds: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: `${url}/trpc/triggerDeploy`,
    connections: 10,
    duration: seconds,
    requests: services.map((serviceId) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ json: { serviceId, imageTag: 'ghcr.io/acme/api:2.0.0' } }),
    })),
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export interface CommandLaneResult {
  deployments: number;
  firstMedianMs: number;
  lastMedianMs: number;
  oneService: LoadResult;
  tenServices: LoadResult;
  bare: LoadResult;
  express: LoadResult;
  idleRssMb: number;
  afterLoadRssMb: number;
}

/**
 * Sequential triggerDeploy on one service (each cancelled at once, so the queue stays short
 * and only history grows), then ten concurrent clients, all over HTTP against the built server.
 */
export async function benchCommandLane(
  deployments: number,
  seconds: number,
  /** More of the server's environment: where its stores are (see postgres-stores.ts). */
  stores: Record<string, string> = {},
): Promise<CommandLaneResult> {
  // Its fixture servers are never contacted: no runner, no connection checks at approval.
  const slipway = await startSlipway({
    SLIPWAY_RUNNER: 'off',
    SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS: '0',
    ...stores,
  });
  const { url } = slipway;
  const bare = await spawnListening(here('./bare-server.js'));
  const express = await spawnListening(here('./bare-express.js'));
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const idleRssMb = rssMb(slipway.pid);
    const session = await signUpOwner(url);
    const { cookie } = session;
    const main = await readyService(session, 'api');
    const latencies: number[] = [];
    for (let i = 0; i < deployments; i++) {
      const started = performance.now();
      const { deploymentId } = await rpc<{ deploymentId: string }>(session, 'triggerDeploy', {
        serviceId: main,
        imageTag: `ghcr.io/acme/api:1.0.${i}`,
      });
      latencies.push(performance.now() - started);
      await rpc(session, 'cancelDeployment', { deploymentId });
    }
    const others = [];
    for (let i = 0; i < 10; i++) others.push(await readyService(session, `svc-${i}`));
    const oneService = await concurrentTriggers(url, cookie, [others[0]], seconds);
    const tenServices = await concurrentTriggers(url, cookie, others, seconds);
    const afterLoadRssMb = rssMb(slipway.pid);
    const same = (port: number) =>
      autocannon({ url: `http://127.0.0.1:${port}/`, connections: 10, duration: seconds });
    const toLoad = (r: autocannon.Result): LoadResult => ({
      requestsPerSecond: r.requests.average,
      p99Ms: r.latency.p99,
      errors: r.errors,
      non2xx: r.non2xx,
    });
    return {
      deployments,
      firstMedianMs: median(latencies.slice(0, 100)),
      lastMedianMs: median(latencies.slice(-100)),
      oneService,
      tenServices,
      bare: toLoad(await same(bare.port)),
      express: toLoad(await same(express.port)),
      idleRssMb,
      afterLoadRssMb,
    };
  } finally {
    await slipway.stop();
    await stop(bare.child);
    await stop(express.child);
  }
}

/** Runnable alone: `npm run build && node dist/bench/command-lane.bench.js`. */
export function printCommandLane(r: CommandLaneResult, stores = 'SQLite'): void {
  const f = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d });
  console.log(
    `\ncommand lane (HTTP, runner off; BENCH_DEPLOYMENTS=${r.deployments}; stores: ${stores})`,
  );
  console.log(
    `  sequential triggerDeploy, one service: median ${f(r.firstMedianMs, 2)} ms (1-100) vs ${f(r.lastMedianMs, 2)} ms (last 100) = ${f(r.lastMedianMs / r.firstMedianMs, 2)} x`,
  );
  for (const [label, x] of [
    ['10 clients, one service ', r.oneService],
    ['10 clients, 10 services ', r.tenServices],
    ['bare node:http same JSON', r.bare],
    ['bare Express 5 same JSON', r.express],
  ] as const) {
    console.log(
      `  ${label}  ${f(x.requestsPerSecond, 0)} req/s  p99 ${x.p99Ms} ms  errors ${x.errors} non-2xx ${x.non2xx}`,
    );
  }
  console.log(
    `  trigger throughput: ${f(r.oneService.requestsPerSecond / r.express.requestsPerSecond, 3)} x bare Express 5 (one service), ${f(r.tenServices.requestsPerSecond / r.express.requestsPerSecond, 3)} x (10 services)`,
  );
  console.log(
    `  RSS idle after start ${f(r.idleRssMb)} MB, after the load ${f(r.afterLoadRssMb)} MB`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const deployments = Number(process.env.BENCH_DEPLOYMENTS ?? 10_000);
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  printCommandLane(await benchCommandLane(deployments, seconds));
  // The same on PostgreSQL (BENCH_POSTGRES=off: SQLite only).
  if (process.env.BENCH_POSTGRES !== 'off') {
    const postgres = await benchPostgres();
    try {
      const result = await benchCommandLane(deployments, seconds, await postgres.database());
      printCommandLane(result, 'PostgreSQL');
    } finally {
      await postgres.stop();
    }
  }
}
