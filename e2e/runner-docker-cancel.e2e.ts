import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
  waitForDeployment,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Details {
  status: string;
  failureReason: string | null;
  failedStep: string | null;
  steps: { step: string; ok: boolean | null }[];
}

const PROJECT = 'slowpull-production';
const CHUNK = 16 * 1024;
const TICK_MS = 100;

/**
 * A TCP proxy on a random loopback port in front of the registry that hands the registry's
 * answers on 16 KiB per 100 ms: a layer of a few MB takes far longer than the test waits.
 */
async function throttlingProxy(
  target: string,
): Promise<{ port: number; connections(): number; forwarded(): number; close(): Promise<void> }> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), target.split(':').pop()!];
  const sockets = new Set<Socket>();
  let forwarded = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.on('data', (bytes: Buffer) => {
      upstream.pause();
      let at = 0;
      const next = () => {
        if (client.destroyed) return;
        if (at >= bytes.length) return void upstream.resume();
        const chunk = bytes.subarray(at, at + CHUNK);
        forwarded += chunk.length;
        client.write(chunk);
        at += CHUNK;
        setTimeout(next, TICK_MS);
      };
      next();
    });
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    connections: () => sockets.size / 2,
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The remote `docker compose ... pull` / `docker pull` processes of this project, if any. */
function remotePulls(): string {
  // The sshd runs on this machine as the user running the tests: its commands are visible here.
  try {
    return execFileSync(
      'pgrep',
      ['-af', `compose --project-name ${PROJECT} .* pull( |$)|docker pull .*/acme/api:slowpull-`],
      { encoding: 'utf8' },
    ).trim();
  } catch {
    return ''; // pgrep exits 1 when nothing matches
  }
}

/**
 * A pull cancelled half-way on a real engine: an image whose layer the engine lacks, served by
 * the loopback registry through a throttling proxy, so the `pull` step is still downloading
 * when the deployment is cancelled.
 */
describe('the runner cancels a slow pull on a real Docker engine', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let proxy: Awaited<ReturnType<typeof throttlingProxy>>;
  let context: string;
  const tag = `slowpull-${randomBytes(6).toString('hex')}`;
  let pushed: string;
  let slowRef: string;

  const details = async (deploymentId: string) =>
    data<Details>(await call(t.url, 'GET', 'deploymentDetails', owner, { deploymentId }));
  const logs = async (deploymentId: string) =>
    data<{ lines: { step: string; stream: string; text: string }[] }>(
      await call(t.url, 'GET', 'deploymentLogs', owner, { deploymentId, limit: 1000 }),
    ).lines;
  const until = async (what: string, test: () => Promise<boolean> | boolean, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await test())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    engine = dockerEngine();
    // An image one layer of 4 MB of random bytes (incompressible) above acme/api:1.0.0, pushed
    // to the registry, then removed from the engine: a pull must download that layer.
    context = mkdtempSync(join(tmpdir(), 'slipway-slowpull-'));
    writeFileSync(join(context, 'blob'), randomBytes(4 * 1024 * 1024));
    writeFileSync(
      join(context, 'Dockerfile'),
      `FROM ${engine.registry}/acme/api:1.0.0\nCOPY blob /blob\n`,
    );
    pushed = `${engine.registry}/acme/api:${tag}`;
    engine.docker(['build', '--quiet', '--tag', pushed, context]);
    engine.docker(['push', '--quiet', pushed]);
    engine.docker(['rmi', pushed]);
    proxy = await throttlingProxy(engine.registry);
    slowRef = `127.0.0.1:${proxy.port}/acme/api:${tag}`;

    sshd = await startSshd({ engine });
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'slowpull',
        environment: 'production',
        serverId,
        imageRepository: `127.0.0.1:${proxy.port}/acme/api`,
        compose: `services:\n  api:\n    image: ${slowRef}\n`,
      }),
    ).serviceId;
  }, 2 * 60_000);

  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    await proxy?.close();
    if (!engine) return;
    engine.removeProject(PROJECT);
    for (const ref of [pushed, slowRef].filter(Boolean)) {
      try {
        engine.docker(['rmi', ref]);
      } catch {
        // not on the engine: the cancelled pull left nothing behind
      }
    }
    if (context) rmSync(context, { recursive: true, force: true });
  });

  it('checks its premise: the engine pulls through the proxy over plain HTTP', async () => {
    // A direct pull of the same reference through the proxy starts downloading the new layer.
    const pull = spawn('/usr/bin/docker', ['pull', slowRef], {
      env: { ...process.env, DOCKER_HOST: engine.host, DOCKER_CONFIG: engine.config },
    });
    let out = '';
    pull.stdout.on('data', (c: Buffer) => (out += c.toString()));
    pull.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await until('the direct pull to download', () => /Pulling fs layer|Downloading/.test(out));
    } finally {
      pull.kill('SIGTERM');
      await new Promise((r) => pull.once('close', r));
    }
    expect(out).not.toMatch(/http: server gave HTTP response to HTTPS client/);
    expect(out).toContain(`${tag}: Pulling from acme/api`);
    expect(proxy.forwarded()).toBeGreaterThan(0);
  }, 30_000);

  it('cancels the deployment while it pulls: cancelled, the remote pull gone, nothing started', async () => {
    const before = proxy.forwarded();
    const id = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: slowRef }),
    ).deploymentId;
    await waitForDeployment<Details>(t, owner, id, ['running'], 20_000, 50);
    await until('the pull step to run', async () => {
      const d = await details(id);
      return d.steps.at(-1)?.step === 'pull' && d.steps.at(-1)?.ok === null;
    });
    await until('the remote compose pull to start', () => remotePulls() !== '');
    expect(remotePulls()).toMatch(/compose .* pull$/m);
    // The engine is downloading the 4 MB layer through the proxy (manifests are a few KB).
    await until('the layer download to start', () => proxy.forwarded() > before + 128 * 1024);

    data(await call(t.url, 'POST', 'cancelDeployment', owner, { deploymentId: id }));
    const done = await waitForDeployment<Details>(
      t,
      owner,
      id,
      ['succeeded', 'failed', 'cancelled'],
      20_000,
      50,
    );
    expect([done.status, done.failedStep]).toEqual(['cancelled', null]);
    // The pull step never finished and nothing after it ran.
    expect(done.steps.at(-1)).toMatchObject({ step: 'pull', ok: null });
    expect(await logs(id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ step: 'cancel', text: expect.stringContaining('cancelled') }),
      ]),
    );
    // The remote pull was stopped, not left downloading on the server.
    await until('the remote pull to stop', () => remotePulls() === '', 10_000);
    expect(remotePulls()).toBe('');
    // The engine gave up the download too: no connection through the proxy stays open.
    await until('the engine to close its registry connections', () => proxy.connections() === 0);
    expect(proxy.connections()).toBe(0);
    // Nothing was started with the new image, and the engine does not hold it.
    expect(
      engine
        .docker(['ps', '--all', '--filter', `label=com.docker.compose.project=${PROJECT}`, '-q'])
        .trim(),
    ).toBe('');
    expect(() => engine.docker(['image', 'inspect', slowRef])).toThrow();
  }, 50_000);
});
