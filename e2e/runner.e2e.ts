/**
 * The runner over a real sshd with the recording stand-in `docker` (e2e/support/sshd.ts). Every
 * engine-shaped case (success with steps, argv, logs and digest; pull failure; unhealthy
 * container; slow to healthy; cancel during a slow pull; rollback; backup) runs on the real engine
 * in runner-docker.e2e.ts and runner-docker-cancel.e2e.ts. What stays here, and why:
 * - hostile env values: about the runner's quoting and the `.env` it writes, not the engine;
 *   the `$(touch ...)` must reach no shell, so no engine need be behind it.
 * - the watchdog: needs a step with no output for N seconds; a real `compose pull` prints
 *   progress all the way (even throttled), and up/ps finish quickly, so only the stand-in's
 *   silent `sleep` produces it.
 * - a changed host key: refused at `connect`, before any docker runs; the check is that the
 *   recorded docker call list does not grow, which an engine would add nothing to.
 */
import { existsSync, readFileSync } from 'node:fs';
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

  it('keeps hostile env values inert: written literally, nothing executed', async () => {
    sshd.setMode('success');
    const id = await deploy('ghcr.io/acme/api:1.0.0');
    expect((await waitForStatus(id, ['succeeded', 'failed'])).status).toBe('succeeded');
    const dir = join(sshd.remoteDir, 'api-production', id);
    const env = readFileSync(join(dir, '.env'), 'utf8');
    expect(env).toContain('DATABASE_URL="postgres://u:p@db/app"');
    expect(env).toContain(
      `EVIL="; rm -rf / $$(touch ${sshd.dir}/pwned) \`id\` 'single' \\"double\\"\\nsecond line $$HOME"`,
    );
    expect(existsSync(join(sshd.dir, 'pwned'))).toBe(false);
    // The judged document, written as JSON.
    const shipped = JSON.parse(readFileSync(join(dir, 'compose.yaml'), 'utf8'));
    expect(shipped.services.api.image).toBe('ghcr.io/acme/api:1.0.0');
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
