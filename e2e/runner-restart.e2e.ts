import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { COMPOSE } from './support/deployments.js';
import { PASSWORD, sessionCookie } from './support/identity.js';
import { startSshd, type TestSshd, ALLOW_LOOPBACK } from './support/sshd.js';
import { freePort } from './support/ports.js';

const main = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));
const worker = fileURLToPath(new URL('../dist/src/worker.js', import.meta.url));

describe('runner processes: restart recovery and a separate worker', () => {
  let sshd: TestSshd;
  let dataDir: string;
  const dataDirs: string[] = [];
  const children: ChildProcess[] = [];

  function start(script: string, port: number, env: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, [script], {
      env: {
        ...process.env,
        PORT: String(port),
        SLIPWAY_DATA_DIR: dataDir,
        SLIPWAY_LOG_LEVEL: 'error',
        SLIPWAY_RUNNER_REMOTE_DIR: sshd.remoteDir,
        SLIPWAY_RUNNER_POLL_MS: '50',
        SLIPWAY_PROJECTION_POLL_MS: '50',
        SLIPWAY_SERVER_ADDRESS_POLICY: ALLOW_LOOPBACK,
        ...env,
      },
      stdio: 'ignore',
    });
    children.push(child);
    return child;
  }
  async function up(url: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${url}/trpc/health`)).ok) return;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('server did not start');
  }
  const rpc = (
    url: string,
    cookie: string,
    method: 'GET' | 'POST',
    name: string,
    input: unknown,
  ) =>
    method === 'GET'
      ? request(url)
          .get(`/trpc/${name}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`)
          .set('Cookie', cookie)
      : request(url).post(`/trpc/${name}`).set('Cookie', cookie).send({ json: input });
  async function status(
    url: string,
    cookie: string,
    id: string,
    want: string[],
  ): Promise<{ status: string; failureReason: string | null }> {
    for (let i = 0; i < 600; i++) {
      const res = await rpc(url, cookie, 'GET', 'deploymentDetails', { deploymentId: id });
      const d = res.body.result?.data.json;
      if (d && want.includes(d.status)) return d;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`never reached ${want.join('/')}`);
  }
  async function setUp(url: string, name: string): Promise<{ cookie: string; serviceId: string }> {
    const signUp = await request(url)
      .post('/api/auth/sign-up')
      .send({ email: `${name}@example.com`, password: PASSWORD, name });
    const cookie =
      signUp.status === 201
        ? sessionCookie(signUp.headers['set-cookie'])
        : sessionCookie(
            (
              await request(url)
                .post('/api/auth/login')
                .send({ email: `${name}@example.com`, password: PASSWORD })
            ).headers['set-cookie'],
          );
    const server = await rpc(url, cookie, 'POST', 'registerServer', {
      name: `${name}-host`,
      host: sshd.host,
      sshPort: sshd.port,
      sshUser: sshd.user,
      privateKey: sshd.clientKey,
      hostKeyFingerprint: sshd.fingerprint,
    });
    const serverId = server.body.result.data.json.serverId;
    await rpc(url, cookie, 'POST', 'approveServerHostKey', {
      serverId,
      fingerprint: sshd.fingerprint,
    });
    const service = await rpc(url, cookie, 'POST', 'registerService', {
      name,
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
    });
    return { cookie, serviceId: service.body.result.data.json.serviceId };
  }

  beforeAll(async () => {
    sshd = await startSshd();
    dataDir = mkdtempSync(join(tmpdir(), 'slipway-runner-proc-'));
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await sshd?.stop();
    for (const dir of [...dataDirs, dataDir]) rmSync(dir, { recursive: true, force: true });
  });

  it('fails a deployment that was running when the process was killed, once it restarts', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    sshd.setMode('slow');
    let child = start(main, port);
    await up(url);
    const { cookie, serviceId } = await setUp(url, 'crashy');
    const id = (
      await rpc(url, cookie, 'POST', 'triggerDeploy', {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.0.0',
      })
    ).body.result.data.json.deploymentId;
    await status(url, cookie, id, ['running']);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    sshd.setMode('success');
    child = start(main, port);
    await up(url);
    const login = await request(url)
      .post('/api/auth/login')
      .send({ email: 'crashy@example.com', password: PASSWORD });
    const after = await status(url, sessionCookie(login.headers['set-cookie']), id, [
      'failed',
      'succeeded',
      'cancelled',
    ]);
    expect(after).toMatchObject({ status: 'failed', failureReason: 'runner restarted' });
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });

  it('runs deployments from a separate worker process beside an API without a runner', async () => {
    dataDirs.push(dataDir);
    dataDir = mkdtempSync(join(tmpdir(), 'slipway-runner-proc-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    sshd.setMode('success');
    start(main, port, { SLIPWAY_RUNNER: 'off' });
    await up(url);
    const { cookie, serviceId } = await setUp(url, 'split');
    const id = (
      await rpc(url, cookie, 'POST', 'triggerDeploy', {
        serviceId,
        imageTag: 'ghcr.io/acme/api:3.0.0',
      })
    ).body.result.data.json.deploymentId;
    await new Promise((r) => setTimeout(r, 300));
    expect((await status(url, cookie, id, ['queued'])).status).toBe('queued');
    start(worker, await freePort());
    expect((await status(url, cookie, id, ['succeeded', 'failed'])).status).toBe('succeeded');
  });
});
