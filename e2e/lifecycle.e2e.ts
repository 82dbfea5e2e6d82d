import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMPOSE, FINGERPRINT, PRIVATE_KEY, data, readyService } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const NEW_FINGERPRINT = `SHA256:${'N'.repeat(43)}`;

describe('lifecycle of servers and services', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let n = 0;
  const unique = (prefix: string) => `${prefix}-${(n += 1)}`;

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    ownerCookie = (await signUp(t.url, 'owner@example.com')).cookie;
    owner = cookieAuth(ownerCookie);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  const deploy = (serviceId: string, tag = '1.0.0') =>
    call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: `ghcr.io/acme/api:${tag}` });

  it('updates labels, SSH user and key; never returns the key', async () => {
    const { serverId } = await readyService(t.url, owner, { name: unique('api') });
    const updated = data<{ updated: string[]; status: string | null }>(
      await call(t.url, 'POST', 'updateServer', owner, {
        serverId,
        labels: ['tier=web', 'zone=a'],
        sshUser: 'deployer',
        privateKey: PRIVATE_KEY.replace('c2VjcmV0', 'bmV3a2V5'),
      }),
    );
    expect(updated).toEqual({
      serverId,
      updated: ['labels', 'privateKey', 'sshUser'],
      status: null,
    });
    const details = await call(t.url, 'GET', 'serverDetails', owner, { serverId });
    expect(data(details)).toMatchObject({
      labels: { tier: 'web', zone: 'a' },
      sshUser: 'deployer',
      status: 'ready',
    });
    expect(JSON.stringify(details.body)).not.toMatch(/PRIVATE KEY|credential|bmV3a2V5/);
  });

  it('re-pins a host key: pending until approved with the new fingerprint, deploys refused meanwhile', async () => {
    const { serverId, serviceId } = await readyService(t.url, owner, { name: unique('api') });
    const repinned = data(
      await call(t.url, 'POST', 'updateServer', owner, {
        serverId,
        hostKeyFingerprint: NEW_FINGERPRINT,
      }),
    );
    expect(repinned).toMatchObject({ updated: ['hostKeyFingerprint'], status: 'pending-host-key' });
    expect(data(await call(t.url, 'GET', 'serverDetails', owner, { serverId }))).toMatchObject({
      hostKeyFingerprint: NEW_FINGERPRINT,
      hostKeyApproved: false,
      status: 'pending-host-key',
    });
    expect((await deploy(serviceId)).status).toBe(409);
    const old = await call(t.url, 'POST', 'approveServerHostKey', owner, {
      serverId,
      fingerprint: FINGERPRINT,
    });
    expect(old.status).toBe(409);
    data(
      await call(t.url, 'POST', 'approveServerHostKey', owner, {
        serverId,
        fingerprint: NEW_FINGERPRINT,
      }),
    );
    expect((await deploy(serviceId)).status).toBe(200);
  });

  it('names the volumes its compose file declares, as the compose file changes', async () => {
    const { serviceId } = await readyService(t.url, owner, { name: unique('api') });
    const volumes = async () =>
      data<{ volumes: string[] }>(await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }))
        .volumes;
    expect(await volumes()).toEqual([]);
    data(
      await call(t.url, 'POST', 'updateService', owner, {
        serviceId,
        compose: [
          'services:',
          '  api:',
          '    image: ghcr.io/acme/api:1.0.0',
          '    volumes: ["uploads:/srv/uploads", "cache:/tmp/cache", "./conf:/etc/conf:ro"]',
          'volumes:',
          '  uploads: {}',
          '  cache:',
          '    labels: { purpose: scratch }',
          '',
        ].join('\n'),
      }),
    );
    // Named volumes only, by their compose names (a bind mount is not a volume to back up).
    expect(await volumes()).toEqual(['uploads', 'cache']);
  });

  it('adds, changes and removes env vars; secrets sealed and masked', async () => {
    const { serviceId } = await readyService(t.url, owner, { name: unique('api') });
    const res = data<{ updated: string[] }>(
      await call(t.url, 'POST', 'updateService', owner, {
        serviceId,
        setEnv: [
          { name: 'LOG_LEVEL', value: 'debug' },
          { name: 'API_KEY', value: 'sk-very-secret-value', secret: true },
        ],
        removeEnv: ['DATABASE_URL'],
      }),
    );
    expect(res.updated).toEqual(['env']);
    const details = await call(t.url, 'GET', 'serviceDetails', owner, { serviceId });
    expect(data<{ env: unknown[] }>(details).env).toEqual([
      { name: 'LOG_LEVEL', value: 'debug', secret: false },
      { name: 'API_KEY', value: '********', secret: true },
    ]);
    expect(JSON.stringify(details.body)).not.toContain('sk-very-secret-value');
    const both = await call(t.url, 'POST', 'updateService', owner, {
      serviceId,
      env: [],
      removeEnv: ['LOG_LEVEL'],
    });
    expect(both.status).toBe(400);
    const badName = await call(t.url, 'POST', 'updateService', owner, {
      serviceId,
      removeEnv: ['NOT-A NAME'],
    });
    expect(badName.status).toBe(400);
  });

  it('archives a service: history kept, deployments and changes refused; compose down over SSH', async () => {
    const serverId = await registerLoopbackServer(t.url, owner, sshd, unique('loop'));
    const name = unique('shop');
    const service = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name,
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      }),
    );
    const archived = data<{ status: string; composeDown: { ok: boolean } | null }>(
      await call(t.url, 'POST', 'archiveService', owner, {
        serviceId: service.serviceId,
        composeDown: true,
      }),
    );
    expect(archived).toMatchObject({
      status: 'archived',
      changed: true,
      composeDown: { ok: true },
    });
    expect(sshd.dockerCalls()).toContainEqual([
      'compose',
      '--project-name',
      `${name}-production`,
      'down',
    ]);
    expect((await deploy(service.serviceId)).status).toBe(409);
    const change = await call(t.url, 'POST', 'updateService', owner, {
      serviceId: service.serviceId,
      approvalRule: 'agents',
    });
    expect(change.status).toBe(409);
    expect(
      data(await call(t.url, 'GET', 'serviceDetails', owner, { serviceId: service.serviceId })),
    ).toMatchObject({ status: 'archived', name });
    const again = data(
      await call(t.url, 'POST', 'archiveService', owner, { serviceId: service.serviceId }),
    );
    expect(again).toMatchObject({ changed: false });
  });

  it('decommissions a server only once no active service targets it; never deletes it', async () => {
    const { serverId, serviceId } = await readyService(t.url, owner, { name: unique('api') });
    const refused = await call(t.url, 'POST', 'decommissionServer', owner, { serverId });
    expect(refused.status).toBe(409);
    expect(refused.body.error.data.services).toEqual([expect.objectContaining({ serviceId })]);
    data(await call(t.url, 'POST', 'archiveService', owner, { serviceId }));
    expect(
      data(await call(t.url, 'POST', 'decommissionServer', owner, { serverId })),
    ).toMatchObject({
      status: 'decommissioned',
      changed: true,
    });
    const onIt = await call(t.url, 'POST', 'registerService', owner, {
      name: unique('late'),
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
    });
    expect(onIt.status).toBe(409);
    const listed = data<{ items: { id: string }[] }>(
      await call(t.url, 'GET', 'servers', owner, { status: 'decommissioned', limit: 100 }),
    );
    expect(listed.items.map((s) => s.id)).toContain(serverId);
    const changed = await call(t.url, 'POST', 'updateServer', owner, { serverId, sshUser: 'x' });
    expect(changed.status).toBe(409);
  });

  it('pages through services and servers', async () => {
    const first = data<{ items: { id: string }[]; nextCursor: string | null }>(
      await call(t.url, 'GET', 'services', owner, { limit: 1 }),
    );
    expect(first.items).toHaveLength(1);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = data<{ items: { id: string }[] }>(
      await call(t.url, 'GET', 'services', owner, { limit: 1, cursor: first.nextCursor }),
    );
    expect(second.items[0].id).not.toBe(first.items[0].id);
    const archived = data<{ items: { status: string }[] }>(
      await call(t.url, 'GET', 'services', owner, { status: 'archived', limit: 100 }),
    );
    expect(archived.items.length).toBeGreaterThan(0);
    expect(archived.items.every((s) => s.status === 'archived')).toBe(true);
    const unknown = await call(t.url, 'GET', 'serverDetails', owner, {
      serverId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
  });

  it('refuses the wrong role, a narrow token, no credentials and malformed input', async () => {
    const { serverId, serviceId } = await readyService(t.url, owner, { name: unique('api') });
    const viewer = await memberWithRole(t.url, owner, `${unique('v')}@example.com`, 'viewer');
    const operator = await memberWithRole(t.url, owner, `${unique('o')}@example.com`, 'operator');
    expect(
      (await call(t.url, 'POST', 'updateServer', viewer, { serverId, sshUser: 'x' })).status,
    ).toBe(403);
    expect((await call(t.url, 'POST', 'archiveService', viewer, { serviceId })).status).toBe(403);
    expect((await call(t.url, 'POST', 'decommissionServer', operator, { serverId })).status).toBe(
      403,
    );
    const narrow = await createToken(t.url, ownerCookie, ['server:read'], 1);
    const byToken = await call(t.url, 'POST', 'updateServer', bearer(narrow.token), {
      serverId,
      sshUser: 'x',
    });
    expect(byToken.status).toBe(403);
    expect(byToken.body.error.data).toMatchObject({
      requiredScopes: ['server:write'],
      grantedScopes: ['server:read'],
    });
    expect((await call(t.url, 'GET', 'services', bearer(narrow.token), {})).status).toBe(403);
    expect((await call(t.url, 'GET', 'servers', bearer(narrow.token), {})).status).toBe(200);
    expect((await call(t.url, 'POST', 'archiveService', {}, { serviceId })).status).toBe(401);
    for (const input of [
      { serverId: null },
      { serverId, hostKeyFingerprint: 'MD5:aa' },
      { serverId, labels: ['no spaces=a b'] },
      { serverId, sshPort: 70000 },
    ]) {
      const res = await call(t.url, 'POST', 'updateServer', owner, input);
      expect([JSON.stringify(input), res.status]).toEqual([JSON.stringify(input), 400]);
    }
    expect((await call(t.url, 'GET', 'services', owner, { limit: 0 })).status).toBe(400);
  });
});
