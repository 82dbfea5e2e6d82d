import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { COMPOSE, data, FINGERPRINT, PRIVATE_KEY, runToSuccess } from './support/deployments.js';
import { call, cookieAuth, logIn, PASSWORD } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

// Made once by e2e/fixtures/make-legacy-store.ts with the code of commit 9ccf61e: version 1
// triggers carrying their idempotency keys, a finished and two queued deployments.
const fixtureDir = fileURLToPath(new URL('./fixtures/legacy-store-9ccf61e', import.meta.url));
const fixture = JSON.parse(readFileSync(join(fixtureDir, 'fixture.json'), 'utf8')) as {
  email: string;
  serviceId: string;
  succeeded: string;
  queued: [string, string];
  keys: Record<string, string>;
};

describe('a store written by the previous release', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-legacy-'));
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    cpSync(fixtureDir, dataDir, { recursive: true });
    t = await startTestApp({ config: { dataDir } });
    auth = cookieAuth(await logIn(t.url, fixture.email));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const keyed = (key: string, tag: string) =>
    request(t.url)
      .post('/trpc/triggerDeploy')
      .set({ ...auth, 'Idempotency-Key': key })
      .send({ json: { serviceId: fixture.serviceId, imageTag: `ghcr.io/acme/api:${tag}` } });
  const details = async (deploymentId: string) =>
    data<{ status: string; sequence: number }>(
      await call(t.url, 'GET', 'deploymentDetails', auth, { deploymentId }),
    );

  it('serves the deployments it holds, rebuilt from its events', async () => {
    expect((await details(fixture.succeeded)).status).toBe('succeeded');
    expect((await details(fixture.queued[0])).status).toBe('queued');
    expect((await details(fixture.queued[1])).status).toBe('queued');
  });

  it('honours idempotency keys recorded by version 1 triggers', async () => {
    const repeat = data<{ deploymentId: string; created: boolean }>(
      await keyed('legacy-key-2', '1.2.0'),
    );
    expect(repeat).toMatchObject({ deploymentId: fixture.keys['legacy-key-2'], created: false });
    const first = data<{ deploymentId: string; created: boolean }>(
      await keyed('legacy-key-1', '1.0.0'),
    );
    expect(first).toMatchObject({ deploymentId: fixture.keys['legacy-key-1'], created: false });
    const other = await keyed('legacy-key-2', '9.9.9');
    expect([other.status, other.body.error.code]).toEqual([409, 'CONFLICT']);
    expect(other.body.error.data.deploymentId).toBe(fixture.keys['legacy-key-2']);
  });

  it('keeps the queue: FIFO order, sequence numbers, and finished deployments refused', async () => {
    const cancelDone = await call(t.url, 'POST', 'cancelDeployment', auth, {
      deploymentId: fixture.succeeded,
    });
    expect([cancelDone.status, cancelDone.body.error.code]).toEqual([409, 'CONFLICT']);
    const fresh = data<{ deploymentId: string; created: boolean }>(await keyed('new-key', '2.0.0'));
    expect(fresh.created).toBe(true);
    expect((await details(fresh.deploymentId)).sequence).toBe(4);
    await runToSuccess(t.app, fixture.queued[0], fixture.serviceId, 'ghcr.io/acme/api:1.1.0');
    expect((await details(fixture.queued[0])).status).toBe('succeeded');
    const cancelled = data<{ status: string }>(
      await call(t.url, 'POST', 'cancelDeployment', auth, { deploymentId: fixture.queued[1] }),
    );
    expect(cancelled.status).toBe('cancelled');
    const again = data<{ deploymentId: string; created: boolean }>(await keyed('new-key', '2.0.0'));
    expect(again).toEqual({ deploymentId: fresh.deploymentId, created: false, status: 'queued' });
  });

  it('keeps its servers, services and members on the shared streams they were written to', async () => {
    const store = t.app.get<EventStore>(EVENT_STORE);
    const inventory = data<{
      servers: { id: string; name: string; services: { id: string; name: string }[] }[];
    }>(await call(t.url, 'GET', 'infrastructureInventory', auth));
    const [server] = inventory.servers;
    const fleetBefore = (await store.readStream('fleet')).length;
    const catalogBefore = (await store.readStream('catalog')).length;
    // Names and emails recorded there stay taken.
    const sameName = await call(t.url, 'POST', 'registerServer', auth, {
      name: server.name,
      host: '10.0.0.2',
      sshUser: 'deploy',
      privateKey: PRIVATE_KEY,
      hostKeyFingerprint: FINGERPRINT,
    });
    expect([sameName.status, sameName.body.error.code]).toEqual([409, 'CONFLICT']);
    const sameService = await call(t.url, 'POST', 'registerService', auth, {
      name: server.services[0].name,
      environment: 'production',
      serverId: server.id,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
    });
    expect([sameService.status, sameService.body.error.code]).toEqual([409, 'CONFLICT']);
    const sameEmail = await request(t.url)
      .post('/api/auth/sign-up')
      .send({ email: fixture.email, password: PASSWORD, name: 'again' });
    expect(sameEmail.status).toBe(409);
    // Changes to what lives there are decided on, and recorded to, the same streams.
    data(
      await call(t.url, 'POST', 'setServerComposePolicy', auth, {
        serverId: server.id,
        allow: ['privileged'],
      }),
    );
    data(
      await call(t.url, 'POST', 'updateService', auth, {
        serviceId: fixture.serviceId,
        approvalRule: 'agents',
      }),
    );
    expect((await store.readStream('fleet')).length).toBe(fleetBefore + 1);
    expect((await store.readStream('catalog')).length).toBe(catalogBefore + 1);
    // A newcomer joins as viewer on their own stream, and the legacy owner can promote them.
    const joined = await request(t.url)
      .post('/api/auth/sign-up')
      .send({ email: 'newcomer@example.com', password: PASSWORD, name: 'newcomer' });
    expect([joined.status, joined.body.user.role]).toEqual([201, 'viewer']);
    data(
      await call(t.url, 'POST', 'changeUserRole', auth, {
        userId: joined.body.user.id,
        role: 'operator',
      }),
    );
  });

  it('takes its subject keys into primary.sqlite, where personal data still opens', async () => {
    expect(existsSync(join(dataDir, 'subject-keys.db'))).toBe(false);
    const members = data<{ items: { email: string | null }[] }>(
      await call(t.url, 'GET', 'members', auth, {}),
    );
    expect(members.items.map((m) => m.email)).toContain(fixture.email);
  });
});
