import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { allEvents } from './support/audit.js';
import { data } from './support/deployments.js';
import { commitOf, githubBody, githubDelivery, gitService } from './support/git-push.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MASTER = 'refs/heads/master';
const [A, B, C] = [101, 102, 103].map(commitOf);
const MOVED_PAST = 'the ref has already moved past this commit';

/**
 * Push deliveries out of order, as providers send them (no order is promised, retries come
 * late), and the rate limits as a stranger meets them: each test on a service of its own.
 */
describe('git push deliveries arrive in any order; the service never goes back', () => {
  let t: TestApp;
  let owner: Record<string, string>;

  /** A push of master from `before` to `after`, signed with the service's secret. */
  const push = (service: { serviceId: string; secret: string }, before: string, after: string) =>
    githubDelivery(t.url, service.serviceId, service.secret, githubBody(MASTER, after, { before }));
  const deployedImages = async (serviceId: string) =>
    data<{ items: { imageRef: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId }),
    ).items.map((d) => d.imageRef);
  const statusOf = (res: request.Response) => [res.status, res.body.status, res.body.reason];

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
  });
  afterAll(() => t?.close());

  it('ignores a late push of a commit the ref has moved past, and claims nothing for it', async () => {
    const service = await gitService(t.url, owner, 'late');
    const second = await push(service, B, C);
    expect([second.status, second.body.status]).toEqual([202, 'queued']);
    // A→B was pushed first, but the provider delivers it after B→C.
    const late = await push(service, A, B);
    expect(statusOf(late)).toEqual([202, 'ignored', MOVED_PAST]);
    expect(await deployedImages(service.serviceId)).toEqual([`ghcr.io/acme/api:${C}`]);
    // Not claimed: its redelivery is ignored the same way, not refused as a replay.
    expect(statusOf(await push(service, A, B))).toEqual([202, 'ignored', MOVED_PAST]);
    const claims = (await allEvents(t)).filter(
      (e) => e.type === 'GitPushDeliveryClaimed' && e.data.serviceId === service.serviceId,
    );
    expect(claims.map((e) => e.data.commit)).toEqual([C]);
  });

  it('deploys a force-push back to an older commit: it moves the ref from its head', async () => {
    const service = await gitService(t.url, owner, 'rollback');
    expect((await push(service, A, B)).body.status).toBe('queued');
    expect((await push(service, B, C)).body.status).toBe('queued');
    const back = await push(service, C, A);
    expect([back.status, back.body.status, back.body.commit]).toEqual([202, 'queued', A]);
    // Then B→C delivered again late (another delivery of it) does not undo the rollback.
    expect(statusOf(await push(service, B, C))).toEqual([202, 'ignored', MOVED_PAST]);
    expect(await deployedImages(service.serviceId)).toEqual(
      [A, C, B].map((c) => `ghcr.io/acme/api:${c}`),
    );
  });

  it('limits verified deliveries per service and minute too', async () => {
    const service = await gitService(t.url, owner, 'busy');
    const statuses: number[] = [];
    // Pushes of a branch no rule names: verified, ignored, counted.
    for (let i = 0; i < 61; i++) {
      const body = githubBody('refs/heads/other', commitOf(200 + i));
      statuses.push((await githubDelivery(t.url, service.serviceId, service.secret, body)).status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 202)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
