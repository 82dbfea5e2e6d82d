import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('concurrency and idempotency', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
  });
  afterAll(async () => t.close());

  it('turns 50 parallel triggers into 50 deployments in strict FIFO order, no event lost or doubled', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(t.url, 'POST', 'triggerDeploy', owner, {
          serviceId,
          imageTag: `ghcr.io/acme/api:5.0.${i}`,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const ids = answers.map((a) => a.body.result.data.json.deploymentId as string);
    expect(new Set(ids).size).toBe(50);
    const events = await t.app
      .get<EventStore>(EVENT_STORE)
      .readStream(`service-deployments-${serviceId}`);
    expect(events.map((e) => e.data.sequence)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(events.map((e) => e.data.deploymentId)).size).toBe(50);
    const listed = data<{ items: { id: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId, limit: 100 }),
    );
    expect(listed.items.map((d) => d.id)).toEqual(
      [...events].reverse().map((e) => e.data.deploymentId),
    );
    const last = data<{ queue: { position: number } }>(
      await call(t.url, 'GET', 'deploymentDetails', owner, {
        deploymentId: String(events[49].data.deploymentId),
      }),
    );
    expect(last.queue.position).toBe(50);
  });

  it('creates one deployment for 20 parallel calls with one Idempotency-Key, and refuses it with other input', async () => {
    const send = (tag: string) =>
      request(t.url)
        .post('/trpc/triggerDeploy')
        .set(owner)
        .set('Idempotency-Key', 'release-6.0.0')
        .send({ json: { serviceId, imageTag: tag } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send('ghcr.io/acme/api:6.0.0')),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.result.data.json.deploymentId)).size).toBe(1);
    expect(answers.filter((a) => a.body.result.data.json.created)).toHaveLength(1);
    const other = await send('ghcr.io/acme/api:6.0.1');
    expect([other.status, other.body.error.code]).toEqual([409, 'CONFLICT']);
    const bad = await request(t.url)
      .post('/trpc/triggerDeploy')
      .set(owner)
      .set('Idempotency-Key', 'has spaces')
      .send({ json: { serviceId, imageTag: 'ghcr.io/acme/api:6.0.0' } });
    expect(bad.status).toBe(400);
  });
});
