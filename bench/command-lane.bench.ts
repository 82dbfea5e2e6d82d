import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { spawnListening, stop, waitForHttp, type LoadResult } from './http-load.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const FINGERPRINT = `SHA256:${'Qm9vdHN0cmFwcGVkIGhvc3Qga2V5IGZvciB0ZXN0cyE'.slice(0, 43)}`;
const PRIVATE_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END OPENSSH PRIVATE KEY-----\n';
const COMPOSE = 'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n';

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function rpc(url: string, name: string, cookie: string, input: unknown): Promise<unknown> {
  const res = await fetch(`${url}/trpc/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ json: input }),
  });
  const body = (await res.json()) as { result?: { data: { json: unknown } }; error?: unknown };
  if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.result!.data.json;
}

async function service(url: string, cookie: string, name: string): Promise<string> {
  const { serverId } = (await rpc(url, 'registerServer', cookie, {
    name: `${name}-host`,
    host: '10.0.0.2',
    sshUser: 'deploy',
    privateKey: PRIVATE_KEY,
    hostKeyFingerprint: FINGERPRINT,
  })) as { serverId: string };
  await rpc(url, 'approveServerHostKey', cookie, { serverId, fingerprint: FINGERPRINT });
  const { serviceId } = (await rpc(url, 'registerService', cookie, {
    name,
    environment: 'production',
    serverId,
    imageRepository: 'ghcr.io/acme/api',
    compose: COMPOSE,
    env: [],
    approvalRule: 'none',
  })) as { serviceId: string };
  return serviceId;
}

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
): Promise<CommandLaneResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-lane-'));
  const port = 35000 + Math.floor(Math.random() * 4000);
  const child = spawn(process.execPath, [here('../src/main.js')], {
    env: { ...process.env, PORT: String(port), SLIPWAY_DATA_DIR: dataDir, SLIPWAY_RUNNER: 'off' },
    stdio: 'ignore',
  });
  const bare = await spawnListening(here('./bare-server.js'));
  const express = await spawnListening(here('./bare-express.js'));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/trpc/health`);
    await new Promise((r) => setTimeout(r, 1000));
    const idleRssMb = rssMb(child.pid!);
    const signUp = await fetch(`${url}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench@example.com',
        password: 'correct horse battery',
        name: 'b',
      }),
    });
    const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
    const main = await service(url, cookie, 'api');
    const latencies: number[] = [];
    for (let i = 0; i < deployments; i++) {
      const started = performance.now();
      const { deploymentId } = (await rpc(url, 'triggerDeploy', cookie, {
        serviceId: main,
        imageTag: `ghcr.io/acme/api:1.0.${i}`,
      })) as { deploymentId: string };
      latencies.push(performance.now() - started);
      await rpc(url, 'cancelDeployment', cookie, { deploymentId });
    }
    const others = [];
    for (let i = 0; i < 10; i++) others.push(await service(url, cookie, `svc-${i}`));
    const oneService = await concurrentTriggers(url, cookie, [others[0]], seconds);
    const tenServices = await concurrentTriggers(url, cookie, others, seconds);
    const afterLoadRssMb = rssMb(child.pid!);
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
    await stop(child);
    await stop(bare.child);
    await stop(express.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runnable alone: `npm run build && node dist/bench/command-lane.bench.js`. */
export function printCommandLane(r: CommandLaneResult): void {
  const f = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d });
  console.log(`\ncommand lane (HTTP, runner off; BENCH_DEPLOYMENTS=${r.deployments})`);
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
  const result = await benchCommandLane(
    Number(process.env.BENCH_DEPLOYMENTS ?? 10_000),
    Number(process.env.BENCH_SECONDS ?? 5),
  );
  printCommandLane(result);
}
