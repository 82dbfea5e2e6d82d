import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import { bearer, call, cookieAuth, signUp, type Minted } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
  waitForDeployment,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PROJECT = 'vault-prod';

interface Details {
  status: string;
  failureReason: string | null;
}

/**
 * The compose policy judges the document Compose runs, on a server whose policy allows nothing:
 * an agent's token sends a bind of the host's root through a merge key inside a volume entry
 * (and the other spellings of the attack), and nothing runs; a stack that uses merge keys
 * honestly runs on the real engine with exactly the mounts that were judged.
 */
describe('the compose policy on a real Docker engine', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let agent: Record<string, string>;
  let serverId: string;
  let serviceId: string;
  let image: string;

  const attack = (source: string) =>
    [
      `x-b: &b {type: bind, source: ${source}}`,
      'services:',
      '  api:',
      `    image: ${image}`,
      '    volumes:',
      '      - <<: *b',
      '        target: /host',
      '',
    ].join('\n');

  beforeAll(async () => {
    engine = dockerEngine();
    image = `${engine.registry}/acme/api:1.0.0`;
    sshd = await startSshd({ engine });
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    serverId = await registerLoopbackServer(t.url, owner, sshd);
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'vault',
        environment: 'prod',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: `services:\n  api:\n    image: ${image}\n`,
      }),
    ).serviceId;
    const principalId = data<{ principalId: string }>(
      await call(t.url, 'POST', 'createAgent', owner, {
        name: 'deployer',
        preset: 'agent:minimal-write',
      }),
    ).principalId;
    const minted = data<Minted>(
      await call(t.url, 'POST', 'generateAgentToken', owner, {
        principalId,
        tokenName: 'ci',
        expiresInDays: 7,
      }),
    );
    agent = bearer(minted.token);
  }, 5 * 60_000);

  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    engine?.removeProject(PROJECT);
  });

  it.each(['/', '/var/run/docker.sock'])(
    'refuses the intake of a bind of %s written through a merge key in a list entry',
    async (source) => {
      const res = await request(t.url)
        .post('/api/v1/deploy/compose')
        .set(agent)
        .send({ serviceId, files: [{ path: 'compose.yaml', contents: attack(source) }] });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.data.issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'compose.services.api.volumes[0]' }),
        ]),
      );
      const recent = data<{ items: unknown[] }>(
        await call(t.url, 'GET', 'recentDeployments', owner, { limit: 20 }),
      );
      expect(recent.items).toEqual([]);
    },
  );

  it('refuses the same document in registerService, updateService and the plan', async () => {
    const register = await call(t.url, 'POST', 'registerService', owner, {
      name: 'other',
      environment: 'prod',
      serverId,
      imageRepository: `${engine.registry}/acme/api`,
      compose: attack('/'),
    });
    expect([register.status, register.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    const update = await call(t.url, 'POST', 'updateService', owner, {
      serviceId,
      compose: attack('/'),
    });
    expect([update.status, update.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    const plan = data<{ isReady: boolean; preflightChecks: { check: string; status: string }[] }>(
      await call(t.url, 'GET', 'composeDeploymentPlan', owner, {
        serverId,
        compose: attack('/'),
      }),
    );
    expect(plan.isReady).toBe(false);
    expect(plan.preflightChecks.find((c) => c.check === 'compose-policy')?.status).toBe('fail');
  });

  it('runs a stack written with merge keys with exactly the mounts that were judged', async () => {
    const compose = [
      'x-common: &common',
      '  restart: "no"',
      '  volumes:',
      '    - {type: bind, source: ./site, target: /www/site, read_only: true}',
      'services:',
      '  api:',
      '    <<: *common',
      `    image: ${image}`,
      '',
    ].join('\n');
    const res = await request(t.url)
      .post('/api/v1/deploy/compose')
      .set(agent)
      .send({
        serviceId,
        files: [
          { path: 'compose.yaml', contents: compose },
          { path: 'site/index.html', contents: 'hello\n' },
        ],
      });
    expect(res.status).toBe(202);
    const done = await waitForDeployment<Details>(
      t,
      owner,
      res.body.deploymentId,
      ['succeeded', 'failed', 'cancelled'],
      60_000,
      50,
    );
    expect([done.status, done.failureReason]).toEqual(['succeeded', null]);
    // What reached the server is the judged document as JSON: no anchors, merge keys or tags.
    const dir = join(sshd.remoteDir, PROJECT, res.body.deploymentId);
    const shipped = readFileSync(join(dir, 'compose.yaml'), 'utf8');
    expect(shipped).not.toContain('<<');
    expect(JSON.parse(shipped).services.api.volumes).toEqual([
      { type: 'bind', source: './site', target: '/www/site', read_only: true },
    ]);
    const container = engine
      .docker(['ps', '-q', '--filter', `label=com.docker.compose.project=${PROJECT}`])
      .trim();
    const mounts = JSON.parse(
      engine.docker(['inspect', '--format', '{{json .Mounts}}', container]),
    ) as { Type: string; Source: string; Destination: string }[];
    expect(mounts.map((m) => [m.Type, m.Source, m.Destination])).toEqual([
      ['bind', join(dir, 'site'), '/www/site'],
    ]);
  });
});
