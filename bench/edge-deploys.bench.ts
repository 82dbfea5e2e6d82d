import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort, startLoopbackSshd } from '../e2e/fixtures/loopback-sshd.js';
import { read, rpc, signUpOwner, type ApiSession } from './bench-api.js';
import { engineEnv } from './bench-engine.js';
import { startSlipway } from './http-load.js';

/**
 * Gapless deploys through the edge proxy, on the real Docker engine of the tests
 * (scripts/docker-engine.sh) over a real sshd on loopback: `connections` clients request the
 * routed domain through Caddy one after another (a connection per request) while `deploys`
 * deployments of a two-container stack (web routed, worker not) alternate between two versions.
 * Baselines in the same run: the same load through the proxy at rest, and straight to the
 * container's address (no proxy).
 */
export interface EdgeDeploysResult {
  deploys: number;
  succeeded: number;
  connections: number;
  requests: number;
  failed: number;
  /** From the new containers' health checks passing (`health-new` done) to the first answer
   * of the new version, per deploy: median and max, in ms. */
  cutoverMedianMs: number;
  cutoverMaxMs: number;
  duringP99Ms: number;
  restP99Ms: number;
  directP99Ms: number;
  restMedianMs: number;
  directMedianMs: number;
  deploySeconds: number;
}

const HOST = 'shop.bench.test';

/** One request on a connection of its own: status and body, or the error; and how long. */
function get(port: number, host: string | null, path: string, address = '127.0.0.1') {
  const started = performance.now();
  return new Promise<{ answer: string; ms: number; at: number }>((resolve) => {
    const done = (answer: string) =>
      resolve({ answer, ms: performance.now() - started, at: Date.now() });
    const req = request(
      {
        host: address,
        port,
        path,
        agent: false,
        timeout: 5000,
        headers: host ? { Host: host } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => done(`${res.statusCode} ${body.trim()}`));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) => done(`error ${e.message}`));
    req.end();
  });
}

/** `connections` loops of requests until `stop()`: every answer with its time. */
function load(connections: number, ask: () => ReturnType<typeof get>) {
  const answers: { answer: string; ms: number; at: number }[] = [];
  let running = true;
  const loops = Array.from({ length: connections }, async () => {
    while (running) answers.push(await ask());
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return answers;
    },
  };
}

const quantile = (xs: number[], q: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] : 0;

interface Deployment {
  status: string;
  failureReason: string | null;
  steps: { step: string; finishedAt: string | null }[];
}

async function deploy(session: ApiSession, serviceId: string, imageTag: string) {
  const { deploymentId } = await rpc<{ deploymentId: string }>(session, 'triggerDeploy', {
    serviceId,
    imageTag,
  });
  for (;;) {
    const d = await read<Deployment>(session, 'deploymentDetails', { deploymentId });
    if (['succeeded', 'failed', 'cancelled'].includes(d.status)) return d;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function benchEdgeDeploys(deploys = 20, connections = 10): Promise<EdgeDeploysResult> {
  const engine = engineEnv();
  const docker = (args: string[]) =>
    execFileSync('/usr/bin/docker', args, {
      encoding: 'utf8',
      env: { ...process.env, DOCKER_HOST: engine.DOCKER_HOST, DOCKER_CONFIG: engine.DOCKER_CONFIG },
    });
  const sshd = await startLoopbackSshd({
    docker: () => '#!/bin/sh\nexec /usr/bin/docker "$@"\n',
    env: [`DOCKER_HOST=${engine.DOCKER_HOST}`, `DOCKER_CONFIG=${engine.DOCKER_CONFIG}`],
  });
  const edgePort = await freeLoopbackPort();
  const registry = engine.SLIPWAY_TEST_REGISTRY;
  const slipway = await startSlipway({
    SLIPWAY_SERVER_ADDRESS_POLICY: 'allow:loopback',
    SLIPWAY_RUNNER_REMOTE_DIR: sshd.remoteDir,
    SLIPWAY_RUNNER_POLL_MS: '50',
    SLIPWAY_EDGE_IMAGE: `${registry}/slipway/caddy:2`,
    SLIPWAY_EDGE_PUBLISH: `127.0.0.1:${edgePort}:80`,
    SLIPWAY_EDGE_DRAIN_SECONDS: '1',
    SLIPWAY_EDGE_WATCH_SECONDS: '0',
  });
  const project = 'shop-bench';
  try {
    docker(['rm', '-f', 'slipway-edge']);
    const session = await signUpOwner(slipway.url);
    const { serverId } = await rpc<{ serverId: string }>(session, 'registerServer', {
      name: 'bench-edge',
      host: sshd.host,
      sshPort: sshd.port,
      sshUser: sshd.user,
      privateKey: sshd.clientKey,
      hostKeyFingerprint: sshd.fingerprint,
    });
    await rpc(session, 'approveServerHostKey', { serverId, fingerprint: sshd.fingerprint });
    const image = (tag: string) => `${registry}/acme/api:${tag}`;
    const { serviceId } = await rpc<{ serviceId: string }>(session, 'registerService', {
      name: 'shop',
      environment: 'bench',
      serverId,
      imageRepository: `${registry}/acme/api`,
      compose: `services:\n  web:\n    image: ${image('1.0.0')}\n    volumes: ["data:/data"]\n  worker:\n    image: ${image('1.0.0')}\nvolumes:\n  data: {}\n`,
      routes: [{ domain: HOST, service: 'web', port: 80, tls: 'off' }],
    });
    const first = await deploy(session, serviceId, image('1.0.0'));
    if (first.status !== 'succeeded') throw new Error(`first deploy: ${first.failureReason}`);

    const viaEdge = () => get(edgePort, HOST, '/version');
    const [container] = docker([
      'ps',
      '-q',
      '--filter',
      `label=com.docker.compose.project=${project}`,
      '--filter',
      'label=com.docker.compose.service=web',
    ])
      .trim()
      .split('\n');
    const address = docker([
      'inspect',
      '-f',
      '{{(index .NetworkSettings.Networks "slipway-edge").IPAddress}}',
      container,
    ]).trim();
    const measure = async (ask: () => ReturnType<typeof get>) => {
      const run = load(connections, ask);
      await new Promise((r) => setTimeout(r, 5000));
      return (await run.stop()).map((a) => a.ms);
    };
    const rest = await measure(viaEdge);
    const direct = await measure(() => get(80, null, '/version', address));

    const during = load(connections, viaEdge);
    const started = Date.now();
    const outcomes: { tag: string; healthyAt: number; status: string }[] = [];
    for (let i = 0; i < deploys; i++) {
      const tag = i % 2 === 0 ? '1.1.0' : '1.0.0';
      const d = await deploy(session, serviceId, image(tag));
      const healthy = d.steps.find((s) => s.step === 'health-new')?.finishedAt;
      outcomes.push({ tag, healthyAt: healthy ? Date.parse(healthy) : NaN, status: d.status });
    }
    const deploySeconds = (Date.now() - started) / 1000;
    const answers = await during.stop();
    const cutovers = outcomes
      .filter((o) => o.status === 'succeeded' && Number.isFinite(o.healthyAt))
      .map((o) => {
        const firstNew = answers.find((a) => a.at >= o.healthyAt && a.answer === `200 ${o.tag}`);
        return firstNew ? firstNew.at - o.healthyAt : NaN;
      })
      .filter(Number.isFinite);
    const failed = answers.filter((a) => !a.answer.startsWith('200 '));
    return {
      deploys,
      succeeded: outcomes.filter((o) => o.status === 'succeeded').length,
      connections,
      requests: answers.length,
      failed: failed.length,
      cutoverMedianMs: quantile(cutovers, 0.5),
      cutoverMaxMs: Math.max(...cutovers),
      duringP99Ms: quantile(
        answers.map((a) => a.ms),
        0.99,
      ),
      restP99Ms: quantile(rest, 0.99),
      directP99Ms: quantile(direct, 0.99),
      restMedianMs: quantile(rest, 0.5),
      directMedianMs: quantile(direct, 0.5),
      deploySeconds,
    };
  } finally {
    await slipway.stop();
    await sshd.stop();
    docker(['rm', '-f', 'slipway-edge']);
    const left = docker([
      'ps',
      '-aq',
      '--filter',
      `label=com.docker.compose.project=${project}`,
    ]).trim();
    if (left) docker(['rm', '-f', ...left.split('\n')]);
  }
}

export function printEdgeDeploys(r: EdgeDeploysResult): void {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(
    `\ngapless deploys through the edge proxy (${r.deploys} deploys of a two-container stack, ${r.connections} clients, a connection per request)`,
  );
  console.log(
    `  requests         ${r.requests} during ${r.deploySeconds.toFixed(0)} s, failed ${r.failed}; deploys succeeded ${r.succeeded}/${r.deploys}`,
  );
  console.log(
    `  cutover          new containers healthy → first answer of the new version: median ${ms(r.cutoverMedianMs)}, max ${ms(r.cutoverMaxMs)}`,
  );
  console.log(
    `  latency          p99 during deploys ${ms(r.duringP99Ms)}, at rest ${ms(r.restP99Ms)} (${(r.duringP99Ms / r.restP99Ms).toFixed(2)} x)`,
  );
  console.log(
    `  proxy overhead   median ${ms(r.restMedianMs)} through Caddy vs ${ms(r.directMedianMs)} direct; p99 ${ms(r.restP99Ms)} vs ${ms(r.directP99Ms)}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchEdgeDeploys(Number(process.env.BENCH_EDGE_DEPLOYS ?? 20))
    .then(printEdgeDeploys)
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
