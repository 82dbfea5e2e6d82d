import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { freePort } from './support/ports.js';
import {
  ALLOW_LOOPBACK,
  deployAndWait,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Details {
  id: string;
  status: string;
  failedStep: string | null;
}

const PROJECT = 'files-production';

/**
 * What deployments leave in `<remote dir>/<project>/` on a real server (sshd, Docker engine):
 * once one succeeds, only its own directory keeps the `.env` and compose file (the secrets
 * opened), the directories of the two that succeeded before it stay without them, and older
 * ones go; a deployment that fails removes nothing.
 */
describe('deployment directories on the server', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let port: number;

  const image = (tag: string) => `${engine.registry}/acme/api:${tag}`;
  const base = () => join(sshd.remoteDir, PROJECT);
  /** The deployments that succeeded, oldest first. */
  const succeeded: string[] = [];
  const deploy = async (tag: string) => {
    const done = await deployAndWait<Details>(t, owner, serviceId, image(tag));
    if (done.status === 'succeeded') succeeded.push(done.id);
    return done;
  };
  /** Each directory of the project on the server, with what it holds. */
  const listing = () =>
    Object.fromEntries(
      readdirSync(base()).map((id) => [id, readdirSync(join(base(), id)).sort().join(' ')]),
    );
  const setToken = async (value: string) =>
    data(
      await call(t.url, 'POST', 'updateService', owner, {
        serviceId,
        env: [{ name: 'TOKEN', value, secret: true }],
      }),
    );
  /** Files under the project's directories that hold the text (grep -rl). */
  const holding = (text: string) => {
    try {
      return execFileSync('grep', ['-rlF', '--', text, base()], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    engine = dockerEngine();
    sshd = await startSshd({ engine });
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    port = await freePort();
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'files',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        // The secret reaches the compose file too, and a relative bind mount lives in the directory.
        compose: [
          'services:',
          '  api:',
          `    image: ${image('1.0.0')}`,
          `    ports: ["127.0.0.1:${port}:80"]`,
          '    environment: [TOKEN]',
          '    volumes: ["./data:/www/data"]',
          '',
        ].join('\n'),
        env: [{ name: 'TOKEN', value: 'first-secret', secret: true }],
      }),
    ).serviceId;
  }, 5 * 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    engine?.removeProject(PROJECT);
  });

  it('keep the secrets only in the running deployment’s directory, and the three newest', async () => {
    const first = await deploy('1.0.0');
    expect(first.status).toBe('succeeded');
    expect(listing()).toEqual({ [first.id]: '.env compose.yaml data' });
    await setToken('rotated-secret');
    for (const tag of ['1.1.0', '1.0.0', '1.1.0'])
      expect((await deploy(tag)).status).toBe('succeeded');
    const [, second, third, fourth] = succeeded;
    expect(listing()).toEqual({
      [fourth]: '.env compose.yaml data',
      [third]: 'data',
      [second]: 'data',
    });
    // The secret before the rotation is nowhere on the server's disk any more.
    expect(holding('first-secret')).toEqual([]);
    expect(holding('rotated-secret').sort()).toEqual(
      [join(base(), fourth, '.env'), join(base(), fourth, 'compose.yaml')].sort(),
    );
  });

  it('leave the running deployment’s directory whole when a newer one fails', async () => {
    const before = listing();
    const running = succeeded.at(-1)!;
    const failed = await deploy('9.9.9');
    expect([failed.status, failed.failedStep]).toEqual(['failed', 'pull']);
    // Nothing removed: the failed one's files stay until a deployment succeeds after it.
    expect(listing()).toEqual({ ...before, [failed.id]: '.env compose.yaml' });
    expect(holding('rotated-secret')).toContain(join(base(), running, '.env'));
    expect(engine.running(PROJECT)).toEqual([`${PROJECT}-api-1 ${image('1.1.0')}`]);
    // The next that succeeds keeps the two that succeeded before it; the failed one goes.
    const next = await deploy('1.0.0');
    expect(next.status).toBe('succeeded');
    const [, , third, fourth] = succeeded;
    expect(listing()).toEqual({
      [next.id]: '.env compose.yaml data',
      [fourth]: 'data',
      [third]: 'data',
    });
  });
});
