import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
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
import { freePort } from './support/ports.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Details {
  status: string;
  failureReason: string | null;
  failedStep: string | null;
  imageDigest: string | null;
  steps: { step: string; ok: boolean | null; startedAt: string; finishedAt: string | null }[];
}

const PROJECT = 'api-production';

/**
 * Deployments through the real runner, over a real sshd, to a real Docker engine: `docker
 * compose pull/up/ps/images` against a loopback registry (scripts/docker-engine.sh).
 */
describe('the runner deploys to a real Docker engine', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let port: number;
  let image: (tag: string) => string;

  const waitForStatus = (deploymentId: string, statuses: string[]) =>
    waitForDeployment<Details>(t, owner, deploymentId, statuses, 45_000, 50);
  const deploy = async (tag: string) =>
    data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: image(tag) }),
    ).deploymentId;
  const finished = async (id: string) => waitForStatus(id, ['succeeded', 'failed', 'cancelled']);
  const logs = async (deploymentId: string) =>
    data<{ lines: { line: number; step: string; stream: string; text: string }[] }>(
      await call(t.url, 'GET', 'deploymentLogs', owner, { deploymentId, limit: 1000 }),
    ).lines;
  /** What the service answers on its published loopback port, or the error. */
  const served = async (path: string) => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        signal: AbortSignal.timeout(5000),
      });
      return `${res.status} ${(await res.text()).trim()}`;
    } catch (error) {
      return `unreachable: ${(error as Error).message}`;
    }
  };
  /** The project's containers as the engine sees them. */
  const containers = () =>
    engine
      .docker([
        'ps',
        '--all',
        '--filter',
        `label=com.docker.compose.project=${PROJECT}`,
        '--format',
        '{{.Names}} {{.Image}} {{.State}}',
      ])
      .trim()
      .split('\n')
      .filter(Boolean);

  beforeAll(async () => {
    engine = dockerEngine();
    image = (tag) => `${engine.registry}/acme/api:${tag}`;
    sshd = await startSshd({ engine });
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    port = await freePort();
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'api',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: `services:\n  api:\n    image: ${image('1.0.0')}\n    ports: ["127.0.0.1:${port}:80"]\n`,
      }),
    ).serviceId;
  }, 5 * 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    engine?.removeProject(PROJECT);
  });

  it('pulls and starts the image; the healthy container answers on its loopback port', async () => {
    const id = await deploy('1.0.0');
    const done = await finished(id);
    expect([done.status, done.failedStep, done.failureReason]).toEqual(['succeeded', null, null]);
    expect(done.steps.map((s) => [s.step, s.ok])).toEqual([
      ['connect', true],
      ['write-compose', true],
      ['write-env', true],
      ['pull', true],
      ['up', true],
      ['health', true],
      ['record-digest', true],
      ['prune-older', true],
    ]);
    expect(done.steps.every((s) => s.finishedAt && s.finishedAt >= s.startedAt)).toBe(true);
    expect(await served('/version')).toBe('200 1.0.0');
    expect(containers()).toEqual([`${PROJECT}-api-1 ${image('1.0.0')} running`]);
    const localId = engine.docker(['image', 'inspect', '--format', '{{.Id}}', image('1.0.0')]);
    expect(done.imageDigest).toBe(localId.trim());
    const lines = await logs(id);
    expect(lines.map((l) => l.line)).toEqual(lines.map((_, i) => i + 1));
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ step: 'pull', text: expect.stringContaining('Pulled') }),
        expect.objectContaining({ step: 'up', text: expect.stringContaining('Started') }),
      ]),
    );
    // The argv the runner gave docker on the server (recorded in front of the real client).
    const calls = sshd.dockerCalls();
    expect(
      calls.some((c) => c.includes('pull') && c.includes('--project-name') && c.includes(PROJECT)),
    ).toBe(true);
    expect(calls.some((c) => c.slice(-3).join(' ') === 'up -d --remove-orphans')).toBe(true);
    const inventory = data<{ servers: { services: { currentImage: string }[] }[] }>(
      await call(t.url, 'GET', 'infrastructureInventory', owner),
    );
    expect(inventory.servers[0].services[0].currentImage).toBe(image('1.0.0'));
  });

  it("fails at pull for a tag the registry does not hold, with the registry's message", async () => {
    const id = await deploy('9.9.9');
    const done = await finished(id);
    expect(done).toMatchObject({
      status: 'failed',
      failedStep: 'pull',
      failureReason: expect.stringMatching(/^pull exited with \d+$/),
    });
    expect(await logs(id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          step: 'pull',
          stream: 'stderr',
          text: expect.stringContaining('manifest unknown'),
        }),
      ]),
    );
    // Nothing was replaced: the running version still answers.
    expect(await served('/version')).toBe('200 1.0.0');
  });

  it('fails at health for a container that exits at start', async () => {
    const done = await finished(await deploy('exits'));
    expect(done).toMatchObject({
      status: 'failed',
      failedStep: 'health',
      failureReason: expect.stringMatching(/^unhealthy: api-production-api-1 exited/),
    });
  });

  it('waits for a container slow to become healthy, then succeeds', async () => {
    const done = await finished(await deploy('slow'));
    expect([done.status, done.failureReason]).toEqual(['succeeded', null]);
    expect(await served('/version')).toBe('200 slow');
  });

  it('rolls back to the previous image: the old version runs and answers again', async () => {
    const v11 = await deploy('1.1.0');
    expect((await finished(v11)).status).toBe('succeeded');
    expect(await served('/version')).toBe('200 1.1.0');
    const v10 = data<{ items: { id: string; imageRef: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId, status: 'succeeded' }),
    ).items.find((d) => d.imageRef === image('1.0.0'))!;
    const rollback = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'executeRollback', owner, {
        serviceId,
        targetDeploymentId: v10.id,
      }),
    ).deploymentId;
    expect((await finished(rollback)).status).toBe('succeeded');
    const shipped = readFileSync(join(sshd.remoteDir, PROJECT, rollback, 'compose.yaml'), 'utf8');
    expect(JSON.parse(shipped).services.api.image).toBe(image('1.0.0'));
    expect(await served('/version')).toBe('200 1.0.0');
    expect(containers()).toEqual([`${PROJECT}-api-1 ${image('1.0.0')} running`]);
  });

  it('takes a backup with a command run in the real container: its tar stream stored and summed', async () => {
    data(
      await call(t.url, 'POST', 'updateService', owner, {
        serviceId,
        backupCommand: `docker exec ${PROJECT}-api-1 tar -c -C /www .`,
      }),
    );
    const taken = data<{ backupId: string; location: string; checksum: string; sizeBytes: number }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId }),
    );
    const bytes = readFileSync(taken.location);
    // A tar stream is binary (NUL-padded headers): stored byte for byte, not as text.
    expect(bytes.includes(0)).toBe(true);
    expect(taken.sizeBytes).toBe(bytes.length);
    expect(taken.checksum).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    expect(sshd.dockerCalls().at(-1)).toEqual([
      'exec',
      `${PROJECT}-api-1`,
      'tar',
      '-c',
      '-C',
      '/www',
      '.',
    ]);
    const plan = data<{ isReady: boolean }>(
      await call(t.url, 'GET', 'backupRestorePlan', owner, { backupId: taken.backupId }),
    );
    expect(plan.isReady).toBe(true);
    expect(execFileSync('tar', ['-xOf', taken.location, './version'], { encoding: 'utf8' })).toBe(
      '1.0.0\n',
    );
  });

  it('gives a name without a value the service’s variable, never the SSH session’s', async () => {
    data(
      await call(t.url, 'POST', 'updateService', owner, {
        serviceId,
        env: [{ name: 'SLIPWAY_X', value: 'from the service', secret: true }],
        compose: `services:\n  api:\n    image: ${image('1.0.0')}\n    ports: ["127.0.0.1:${port}:80"]\n    environment: [HOME, SLIPWAY_X, SSH_CONNECTION]\n`,
      }),
    );
    const done = await finished(await deploy('1.1.0'));
    expect([done.status, done.failureReason]).toEqual(['succeeded', null]);
    // The environment of the container's process, as it started.
    const env = engine
      .docker(['exec', `${PROJECT}-api-1`, 'cat', '/proc/1/environ'])
      .split('\0')
      .filter(Boolean);
    expect(env).toContain('SLIPWAY_X=from the service');
    // The sshd session the runner came in by had these: the container did not get them.
    expect(env).not.toContain(`HOME=${userInfo().homedir}`);
    expect(env.filter((v) => v.startsWith('SSH_'))).toEqual([]);
  });
});
