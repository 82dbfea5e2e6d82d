import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMPOSE, data } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import {
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
  waitForDeployment,
  ALLOW_LOOPBACK,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Details {
  status: string;
  failureReason: string | null;
  failedStep: string | null;
  imageDigest: string | null;
  steps: { step: string; ok: boolean | null; startedAt: string; finishedAt: string | null }[];
}

describe('the runner executes deployments over real SSH', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let serverId: string;

  const waitForStatus = (deploymentId: string, statuses: string[]) =>
    waitForDeployment<Details>(t, owner, deploymentId, statuses, 20_000, 25);
  const deploy = async (tag: string) =>
    data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: tag }),
    ).deploymentId;
  const logs = async (deploymentId: string) =>
    data<{ lines: { line: number; step: string; stream: string; text: string }[] }>(
      await call(t.url, 'GET', 'deploymentLogs', owner, { deploymentId, limit: 1000 }),
    ).lines;

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    serverId = await registerLoopbackServer(t.url, owner, sshd);
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'api',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
        env: [
          { name: 'DATABASE_URL', value: 'postgres://u:p@db/app', secret: true },
          {
            name: 'EVIL',
            value: `; rm -rf / $(touch ${sshd.dir}/pwned) \`id\` 'single' "double"\nsecond line $HOME`,
          },
        ],
      }),
    ).serviceId;
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  it('runs every step over SSH, records logs, and succeeds with the image digest', async () => {
    sshd.setMode('success');
    const id = await deploy('ghcr.io/acme/api:1.0.0');
    const done = await waitForStatus(id, ['succeeded', 'failed']);
    expect([done.status, done.failureReason]).toEqual(['succeeded', null]);
    expect(done.steps.map((s) => [s.step, s.ok])).toEqual([
      ['connect', true],
      ['write-compose', true],
      ['write-env', true],
      ['pull', true],
      ['up', true],
      ['health', true],
      ['record-digest', true],
    ]);
    expect(done.steps.every((s) => s.finishedAt && s.finishedAt >= s.startedAt)).toBe(true);
    expect(done.imageDigest).toMatch(/^sha256:/);
    const lines = await logs(id);
    expect(lines.map((l) => l.line)).toEqual(lines.map((_, i) => i + 1));
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ step: 'pull', stream: 'stdout', text: ' api Pulled' }),
      ]),
    );
    const calls = sshd.dockerCalls();
    expect(
      calls.some(
        (c) => c.includes('pull') && c.includes('--project-name') && c.includes('api-production'),
      ),
    ).toBe(true);
    expect(calls.some((c) => c.slice(-3).join(' ') === 'up -d --remove-orphans')).toBe(true);
    const inventory = data<{ servers: { services: { currentImage: string }[] }[] }>(
      await call(t.url, 'GET', 'infrastructureInventory', owner),
    );
    expect(inventory.servers[0].services[0].currentImage).toBe('ghcr.io/acme/api:1.0.0');
  });

  it('keeps hostile env values inert: written literally, nothing executed', async () => {
    const dir = join(sshd.remoteDir, 'api-production');
    const deployment = readdirSync(dir)[0];
    const env = readFileSync(join(dir, deployment, '.env'), 'utf8');
    expect(env).toContain('DATABASE_URL="postgres://u:p@db/app"');
    expect(env).toContain(
      `EVIL="; rm -rf / $$(touch ${sshd.dir}/pwned) \`id\` 'single' \\"double\\"\\nsecond line $$HOME"`,
    );
    expect(existsSync(join(sshd.dir, 'pwned'))).toBe(false);
    expect(readFileSync(join(dir, deployment, 'compose.yaml'), 'utf8')).toContain(
      'image: ghcr.io/acme/api:1.0.0',
    );
  });

  it('fails a deployment whose pull fails, naming the step, with its log lines', async () => {
    sshd.setMode('pull-fail');
    const id = await deploy('ghcr.io/acme/api:1.0.1');
    const done = await waitForStatus(id, ['succeeded', 'failed']);
    expect(done).toMatchObject({
      status: 'failed',
      failedStep: 'pull',
      failureReason: 'pull exited with 1',
    });
    const lines = await logs(id);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          step: 'pull',
          stream: 'stderr',
          text: expect.stringContaining('manifest unknown'),
        }),
      ]),
    );
  });

  it('fails an unhealthy container at the health step', async () => {
    sshd.setMode('unhealthy');
    const done = await waitForStatus(await deploy('ghcr.io/acme/api:1.0.2'), [
      'succeeded',
      'failed',
    ]);
    expect(done).toMatchObject({
      status: 'failed',
      failedStep: 'health',
      failureReason: expect.stringContaining('unhealthy'),
    });
  });

  it('cancels a deployment during a slow step', async () => {
    sshd.setMode('slow');
    const id = await deploy('ghcr.io/acme/api:1.0.3');
    for (let i = 0; i < 400; i++) {
      const lines = await logs(id);
      if (lines.some((l) => l.text.includes('slow registry'))) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(
      data<{ status: string }>(
        await call(t.url, 'POST', 'cancelDeployment', owner, { deploymentId: id }),
      ).status,
    ).toBe('cancelling');
    const done = await waitForStatus(id, ['cancelled', 'failed', 'succeeded']);
    expect(done.status).toBe('cancelled');
    expect(done.steps.map((s) => s.step)).not.toContain('up');
  });

  it('rolls back by replaying the old image', async () => {
    sshd.setMode('success');
    const v2 = await deploy('ghcr.io/acme/api:2.0.0');
    expect((await waitForStatus(v2, ['succeeded', 'failed'])).status).toBe('succeeded');
    const all = data<{ items: { id: string; imageRef: string; status: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId, status: 'succeeded' }),
    );
    const v1 = all.items.find((d) => d.imageRef === 'ghcr.io/acme/api:1.0.0')!;
    const rollback = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'executeRollback', owner, { serviceId, targetDeploymentId: v1.id }),
    ).deploymentId;
    expect((await waitForStatus(rollback, ['succeeded', 'failed'])).status).toBe('succeeded');
    const compose = readFileSync(
      join(sshd.remoteDir, 'api-production', rollback, 'compose.yaml'),
      'utf8',
    );
    expect(compose).toContain('image: ghcr.io/acme/api:1.0.0');
  });

  it('takes a backup over SSH: artifact stored, SHA-256 computed from the stream, recorded', async () => {
    data(
      await call(t.url, 'POST', 'updateService', owner, {
        serviceId,
        backupCommand: 'docker exec db pg_dump app',
      }),
    );
    const taken = data<{ backupId: string; location: string; checksum: string; sizeBytes: number }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId }),
    );
    const bytes = readFileSync(taken.location);
    expect(bytes.subarray(0, 7)).toEqual(Buffer.from([0x50, 0x47, 0x44, 0x4d, 0x50, 0x00, 0x01]));
    expect(taken.sizeBytes).toBe(bytes.length);
    expect(taken.checksum).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    expect(sshd.dockerCalls().at(-1)).toEqual(['exec', 'db', 'pg_dump', 'app']);
    const plan = data<{ isReady: boolean }>(
      await call(t.url, 'GET', 'backupRestorePlan', owner, { backupId: taken.backupId }),
    );
    expect(plan.isReady).toBe(true);
  });

  it('fails a step that shows no progress past the watchdog timeout', async () => {
    sshd.setMode('slow');
    // Long enough for the quick steps before the pull on a loaded machine; the pull hangs 20 s.
    Object.assign(t.config.runner, { stepTimeoutSeconds: 4 });
    try {
      const done = await waitForStatus(await deploy('ghcr.io/acme/api:4.0.0'), [
        'succeeded',
        'failed',
        'cancelled',
      ]);
      expect(done).toMatchObject({
        status: 'failed',
        failedStep: 'pull',
        failureReason: 'watchdog: no progress for 4 s',
      });
    } finally {
      Object.assign(t.config.runner, { stepTimeoutSeconds: 60 });
      sshd.setMode('success');
    }
  });

  it('refuses a server whose host key differs from the pinned one, running nothing', async () => {
    const before = sshd.dockerCalls().length;
    const other = `SHA256:${'x'.repeat(43)}`;
    const wrongServer = data<{ serverId: string }>(
      await call(t.url, 'POST', 'registerServer', owner, {
        name: 'impostor',
        host: sshd.host,
        sshPort: sshd.port,
        sshUser: sshd.user,
        privateKey: sshd.clientKey,
        hostKeyFingerprint: other,
      }),
    ).serverId;
    data(
      await call(t.url, 'POST', 'approveServerHostKey', owner, {
        serverId: wrongServer,
        fingerprint: other,
      }),
    );
    const svc = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'api',
        environment: 'staging',
        serverId: wrongServer,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      }),
    ).serviceId;
    const id = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, {
        serviceId: svc,
        imageTag: 'ghcr.io/acme/api:1.0.0',
      }),
    ).deploymentId;
    const done = await waitForStatus(id, ['succeeded', 'failed']);
    expect(done).toMatchObject({
      status: 'failed',
      failedStep: 'connect',
      failureReason: expect.stringContaining('does not match the pinned'),
    });
    expect(sshd.dockerCalls().length).toBe(before);
    expect(existsSync(join(sshd.remoteDir, 'api-staging'))).toBe(false);
  });
});
