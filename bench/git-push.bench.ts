import { createHmac, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startGitHost } from '../e2e/support/git-host.js';
import { freeLoopbackPort, startLoopbackSshd } from '../e2e/fixtures/loopback-sshd.js';
import { read, rpc, signUpOwner, type ApiSession } from './bench-api.js';
import { engineEnv } from './bench-engine.js';
import { startSlipway } from './http-load.js';

/**
 * Push to serving, on the real parts: a GitHub push delivery for a repository on a real git
 * host (sshd with git-shell) reaches Slipway, which fetches the commit on the server over SSH,
 * builds a small image on the tests' Docker engine (scripts/docker-engine.sh) and deploys it
 * gaplessly behind the edge proxy. Measured per push, from the webhook's request to the first
 * answer of the new version through the proxy, and where the time goes. Baseline in the same
 * run: deploys of a prebuilt image of the same service (triggerDeploy), to the same answer.
 */
export interface GitPushResult {
  pushes: number;
  succeeded: number;
  /** Medians, ms. */
  totalMs: number;
  acceptMs: number;
  queueMs: number;
  fetchMs: number;
  buildMs: number;
  deployMs: number;
  cutoverMs: number;
  maxTotalMs: number;
  /** The same service deploying a prebuilt image: trigger → first answer, median ms. */
  imageDeployMs: number;
}

const HOST = 'site.bench.test';

/** What the proxy answers for the site's /version (a connection per request). */
function version(port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/version',
        agent: false,
        timeout: 5000,
        headers: { Host: HOST },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${body.trim()}`));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) => resolve(`error ${e.message}`));
    req.end();
  });
}

/** Polls the proxy every 10 ms until it answers `expected`: when it first did (epoch ms). */
async function firstAnswer(port: number, expected: string, deadlineMs: number): Promise<number> {
  while (Date.now() < deadlineMs) {
    if ((await version(port)) === expected) return Date.now();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the site never answered ${expected}`);
}

interface Deployment {
  status: string;
  failureReason: string | null;
  createdAt: string;
  startedAt: string | null;
  steps: { step: string; startedAt: string; finishedAt: string | null }[];
}

async function finished(session: ApiSession, deploymentId: string): Promise<Deployment> {
  for (;;) {
    const d = await read<Deployment>(session, 'deploymentDetails', { deploymentId });
    if (['succeeded', 'failed', 'cancelled'].includes(d.status)) return d;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const median = (xs: number[]) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] : NaN;
const at = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

export async function benchGitPush(pushes = 5): Promise<GitPushResult> {
  const engine = engineEnv();
  const docker = (args: string[]) =>
    execFileSync('/usr/bin/docker', args, {
      encoding: 'utf8',
      env: { ...process.env, DOCKER_HOST: engine.DOCKER_HOST, DOCKER_CONFIG: engine.DOCKER_CONFIG },
    });
  const registry = engine.SLIPWAY_TEST_REGISTRY;
  const sshd = await startLoopbackSshd({
    docker: () => '#!/bin/sh\nexec /usr/bin/docker "$@"\n',
    env: [`DOCKER_HOST=${engine.DOCKER_HOST}`, `DOCKER_CONFIG=${engine.DOCKER_CONFIG}`],
  });
  const git = await startGitHost({ name: 'site' });
  const edgePort = await freeLoopbackPort();
  const slipway = await startSlipway({
    SLIPWAY_SERVER_ADDRESS_POLICY: 'allow:loopback',
    SLIPWAY_RUNNER_REMOTE_DIR: sshd.remoteDir,
    SLIPWAY_RUNNER_POLL_MS: '50',
    SLIPWAY_EDGE_IMAGE: `${registry}/slipway/caddy:2`,
    SLIPWAY_EDGE_PUBLISH: `127.0.0.1:${edgePort}:80`,
    SLIPWAY_EDGE_DRAIN_SECONDS: '1',
    SLIPWAY_EDGE_WATCH_SECONDS: '0',
  });
  const project = 'site-bench';
  try {
    docker(['rm', '-f', 'slipway-edge']);
    const session = await signUpOwner(slipway.url);
    const { serverId } = await rpc<{ serverId: string }>(session, 'registerServer', {
      name: 'bench-git',
      host: sshd.host,
      sshPort: sshd.port,
      sshUser: sshd.user,
      privateKey: sshd.clientKey,
      hostKeyFingerprint: sshd.fingerprint,
    });
    await rpc(session, 'approveServerHostKey', { serverId, fingerprint: sshd.fingerprint });
    const base = `${registry}/acme/api`;
    const { serviceId } = await rpc<{ serviceId: string }>(session, 'registerService', {
      name: 'site',
      environment: 'bench',
      serverId,
      imageRepository: base,
      compose: `services:\n  web:\n    image: ${base}:1.0.0\n`,
      routes: [{ domain: HOST, service: 'web', port: 80, tls: 'off' }],
    });
    const source = await rpc<{ deployKey: { publicKey: string }; webhook: { secret: string } }>(
      session,
      'setServiceGitSource',
      {
        serviceId,
        repository: git.sshUrl,
        hostKeyFingerprint: git.fingerprint,
        rules: [{ kind: 'branch', pattern: 'main', action: 'deploy' }],
      },
    );
    git.authorize(source.deployKey.publicKey);
    const secret = source.webhook.secret;
    const deadline = () => Date.now() + 180_000;

    // Baseline: prebuilt images of the same service, trigger → first answer.
    const imageDeploys: number[] = [];
    for (let i = 0; i < pushes + 1; i++) {
      const tag = i % 2 === 0 ? '1.0.0' : '1.1.0';
      const sent = Date.now();
      const { deploymentId } = await rpc<{ deploymentId: string }>(session, 'triggerDeploy', {
        serviceId,
        imageTag: `${base}:${tag}`,
      });
      const answered = firstAnswer(edgePort, `200 ${tag}`, deadline());
      const d = await finished(session, deploymentId);
      if (d.status !== 'succeeded') throw new Error(`image deploy: ${d.failureReason}`);
      // The first deploy starts the stack and the proxy: not a like-for-like figure.
      if (i > 0) imageDeploys.push((await answered) - sent);
    }

    const rows: Omit<GitPushResult, 'pushes' | 'succeeded' | 'imageDeployMs' | 'maxTotalMs'>[] = [];
    let succeeded = 0;
    for (let i = 0; i < pushes; i++) {
      const label = `git-${i + 1}-${randomUUID().slice(0, 8)}`;
      const commit = git.commit({
        branch: 'main',
        message: `Release ${label}`,
        files: {
          Dockerfile: `FROM ${base}:1.0.0\nCOPY version /www/version\n`,
          version: `${label}\n`,
        },
      });
      const body = JSON.stringify({
        ref: 'refs/heads/main',
        after: commit,
        repository: { ssh_url: git.sshUrl },
        head_commit: { id: commit, message: `Release ${label}`, author: { name: 'Bench' } },
      });
      const sent = Date.now();
      const res = await fetch(`${slipway.url}/api/v1/git/push/${serviceId}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'push',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        },
        body,
      });
      const accepted = Date.now();
      const answer = (await res.json()) as { deploymentId?: string; status?: string };
      if (!answer.deploymentId) throw new Error(`push ${i}: ${JSON.stringify(answer)}`);
      const answered = firstAnswer(edgePort, `200 ${label}`, deadline());
      const d = await finished(session, answer.deploymentId);
      if (d.status !== 'succeeded') throw new Error(`push ${i}: ${d.failureReason}`);
      succeeded++;
      const served = await answered;
      const { lines } = await read<{ lines: { step: string; text: string; at: string }[] }>(
        session,
        'deploymentLogs',
        { deploymentId: answer.deploymentId, limit: 1000 },
      );
      const step = (name: string) => d.steps.find((s) => s.step === name);
      const build = step('build');
      const checkedOut = at(lines.find((l) => l.text.startsWith('checked out'))?.at);
      const healthy = at(step('health-new')?.finishedAt ?? step('health')?.finishedAt);
      rows.push({
        totalMs: served - sent,
        acceptMs: accepted - sent,
        queueMs: at(d.startedAt) - at(d.createdAt),
        fetchMs: checkedOut - at(build?.startedAt),
        buildMs: at(build?.finishedAt) - checkedOut,
        deployMs: healthy - at(build?.finishedAt),
        cutoverMs: served - healthy,
      });
    }
    const pick = (key: keyof (typeof rows)[number]) => median(rows.map((r) => r[key]));
    return {
      pushes,
      succeeded,
      totalMs: pick('totalMs'),
      acceptMs: pick('acceptMs'),
      queueMs: pick('queueMs'),
      fetchMs: pick('fetchMs'),
      buildMs: pick('buildMs'),
      deployMs: pick('deployMs'),
      cutoverMs: pick('cutoverMs'),
      maxTotalMs: Math.max(...rows.map((r) => r.totalMs)),
      imageDeployMs: median(imageDeploys),
    };
  } finally {
    await slipway.stop();
    await git.stop();
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

export function printGitPush(r: GitPushResult): void {
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  console.log(
    `\npush to serving (${r.pushes} pushes of a small image built on the server, through the edge proxy)`,
  );
  console.log(
    `  total            webhook sent → new version answers: median ${ms(r.totalMs)}, max ${ms(r.maxTotalMs)} (${r.succeeded}/${r.pushes} succeeded)`,
  );
  console.log(
    `  where it goes    accept ${ms(r.acceptMs)}, queue ${ms(r.queueMs)}, fetch ${ms(r.fetchMs)}, build ${ms(r.buildMs)}, deploy ${ms(r.deployMs)}, cutover ${ms(r.cutoverMs)}`,
  );
  console.log(
    `  baseline         a prebuilt image, trigger → new version answers: median ${ms(r.imageDeployMs)} (${(r.totalMs / r.imageDeployMs).toFixed(2)} x)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchGitPush(Number(process.env.BENCH_GIT_PUSHES ?? 5))
    .then(printGitPush)
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
