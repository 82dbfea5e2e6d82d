import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { COMPOSE, data, FINGERPRINT, PRIVATE_KEY } from './support/deployments.js';
import { call, cookieAuth, logIn, PASSWORD, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

// Registering servers and services and signing up each claim a stream of their own (the
// name's, the email's): nothing on these paths appends to one stream that all writers share.
describe('no global hot stream on the common paths', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let store: EventStore;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    store = t.app.get<EventStore>(EVENT_STORE);
    owner = cookieAuth((await signUp(t.url, 'founder@example.com')).cookie);
  });
  afterAll(async () => t.close());

  const registerServer = (name: string) =>
    call(t.url, 'POST', 'registerServer', owner, {
      name,
      host: '10.0.0.2',
      sshUser: 'deploy',
      privateKey: PRIVATE_KEY,
      hostKeyFingerprint: FINGERPRINT,
    });
  const signUpAs = (email: string) =>
    request(t.url).post('/api/auth/sign-up').send({ email, password: PASSWORD, name: 'racer' });
  const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

  it('signs up 20 people in parallel without touching the team stream; one email, one account', async () => {
    const distinct = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signUpAs(`member${i}@example.com`)),
    );
    expect(statuses(distinct)).toEqual(Array(20).fill(201));
    expect(distinct.every((r) => r.body.user.role === 'viewer')).toBe(true);
    const same = await Promise.all(Array.from({ length: 10 }, () => signUpAs('twice@example.com')));
    expect(statuses(same)).toEqual([201, ...Array(9).fill(409)]);
    expect((await signUpAs('FOUNDER@example.com')).status).toBe(409);
    // The founder is the only sign-up on the team stream.
    expect((await store.readStream('team-members')).map((e) => e.type)).toEqual(['UserSignedUp']);
    const members = data<{ items: unknown[] }>(
      await call(t.url, 'GET', 'members', owner, { limit: 100 }),
    );
    expect(members.items).toHaveLength(22);
  });

  it('changes the role of a member who joined on their own stream, with the owners counted', async () => {
    const joined = await signUp(t.url, 'second-owner@example.com');
    data(
      await call(t.url, 'POST', 'changeUserRole', owner, { userId: joined.userId, role: 'owner' }),
    );
    const founderId = (await store.readStream('team-members'))[0].data.userId as string;
    const asJoined = cookieAuth(await logIn(t.url, 'second-owner@example.com'));
    // Two owners now, so the founder may step down; the last owner may not.
    data(
      await call(t.url, 'POST', 'changeUserRole', asJoined, { userId: founderId, role: 'admin' }),
    );
    // An admin now, the founder cannot touch the owner; the only owner cannot step down.
    const byAdmin = await call(t.url, 'POST', 'changeUserRole', owner, {
      userId: joined.userId,
      role: 'viewer',
    });
    expect(byAdmin.status).toBe(403);
    const last = await call(t.url, 'POST', 'changeUserRole', asJoined, {
      userId: joined.userId,
      role: 'admin',
    });
    expect([last.status, last.body.error.message]).toEqual([
      409,
      'The last owner cannot be demoted; make someone else owner first',
    ]);
    data(
      await call(t.url, 'POST', 'changeUserRole', asJoined, { userId: founderId, role: 'owner' }),
    );
  });

  it('registers servers by name in parallel: one per name, none on the fleet stream', async () => {
    const distinct = await Promise.all(
      Array.from({ length: 10 }, (_, i) => registerServer(`host-${i}`)),
    );
    expect(statuses(distinct)).toEqual(Array(10).fill(200));
    const same = await Promise.all(Array.from({ length: 8 }, () => registerServer('shared')));
    expect(statuses(same)).toEqual([200, ...Array(7).fill(409)]);
    expect(await store.readStream('fleet')).toEqual([]);
    const serverId = same.find((a) => a.status === 200)!.body.result.data.json.serverId as string;
    data(
      await call(t.url, 'POST', 'approveServerHostKey', owner, {
        serverId,
        fingerprint: FINGERPRINT,
      }),
    );
    const wrong = await call(t.url, 'POST', 'approveServerHostKey', owner, {
      serverId: distinct[0].body.result.data.json.serverId,
      fingerprint: `SHA256:${'x'.repeat(43)}`,
    });
    expect(wrong.status).toBe(409);
  });

  it('registers services by name and environment in parallel: one per pair, none on the catalog stream', async () => {
    const server = data<{ serverId: string }>(await registerServer('services-host'));
    const register = (name: string, environment = 'production') =>
      call(t.url, 'POST', 'registerService', owner, {
        name,
        environment,
        serverId: server.serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      });
    const same = await Promise.all(Array.from({ length: 8 }, () => register('api')));
    expect(statuses(same)).toEqual([200, ...Array(7).fill(409)]);
    data(await register('api', 'staging'));
    const serviceId = same.find((a) => a.status === 200)!.body.result.data.json.serviceId as string;
    data(await call(t.url, 'POST', 'updateService', owner, { serviceId, approvalRule: 'agents' }));
    expect(await store.readStream('catalog')).toEqual([]);
    const inventory = data<{
      servers: { services: { id: string; approvalRule: string }[] }[];
    }>(await call(t.url, 'GET', 'infrastructureInventory', owner, {}));
    const services = inventory.servers.flatMap((s) => s.services);
    expect(services.find((s) => s.id === serviceId)?.approvalRule).toBe('agents');
  });
});
