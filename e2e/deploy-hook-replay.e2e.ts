import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { allEvents, flushRefusals } from './support/audit.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Hook {
  hookId: string;
  secret: string;
}

/** What an attacker who captured a delivery holds: the exact body and its signed headers. */
interface Captured {
  body: string;
  headers: Record<string, string>;
}

const hmac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload).digest('hex');

const githubDelivery = (hook: Hook, event: string, payload: unknown): Captured => {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': randomUUID(),
      'X-Hub-Signature-256': `sha256=${hmac(hook.secret, body)}`,
    },
  };
};

const slipwayDelivery = (hook: Hook, payload: unknown): Captured => {
  const body = JSON.stringify(payload);
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    body,
    headers: {
      'X-Slipway-Timestamp': ts,
      'X-Slipway-Delivery': randomUUID(),
      'X-Slipway-Signature': `sha256=${hmac(hook.secret, `${ts}.${body}`)}`,
    },
  };
};

/** Sends a captured delivery again, the delivery id header (unsigned) swapped for a new one. */
const send = (url: string, hook: Hook, d: Captured, newDeliveryId = false) => {
  const headers = { ...d.headers };
  for (const name of ['X-GitHub-Delivery', 'X-Slipway-Delivery']) {
    if (newDeliveryId && headers[name]) headers[name] = randomUUID();
  }
  return request(url)
    .post(`/api/v1/hooks/${hook.hookId}`)
    .set('Content-Type', 'application/json')
    .set(headers)
    .send(d.body);
};

/** A fresh push of a tag: a new commit each time, so a new body (as real pushes are). */
const tagPush = (tag: string) => ({ ref: `refs/tags/${tag}`, head_commit: { id: randomUUID() } });

const RULES = [
  { source: 'tag', pattern: 'v*', image: 'ghcr.io/acme/api:{version}' },
  { source: 'image', pattern: '*', image: 'ghcr.io/acme/api:{tag}' },
];

async function createHook(
  t: TestApp,
  auth: Record<string, string>,
  serviceId: string,
  rules: unknown[] = RULES,
): Promise<Hook> {
  return data<Hook>(
    await call(t.url, 'POST', 'createDeployWebhook', auth, { serviceId, name: 'ci', rules }),
  );
}

/** The deployments a hook triggered for `imageRef`, counted on the event store. */
async function deploymentsOf(t: TestApp, hook: Hook, imageRef?: string): Promise<number> {
  return (await allEvents(t)).filter(
    (e) =>
      e.type === 'DeploymentTriggered' &&
      e.metadata.actor.principalId === hook.hookId &&
      (imageRef === undefined || e.data.imageRef === imageRef),
  ).length;
}

describe('inbound deploy hooks refuse replays (a captured delivery never deploys twice)', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    serviceId = (await readyService(t.url, owner)).serviceId;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a GitHub delivery resent 3 times with new X-GitHub-Delivery ids deploys once; each resend is a recorded 409', async () => {
    const hook = await createHook(t, owner, serviceId);
    const captured = githubDelivery(hook, 'push', { ref: 'refs/tags/v1.4.2' });
    const first = await send(t.url, hook, captured);
    expect([first.status, first.body.status]).toEqual([202, 'queued']);
    for (let i = 0; i < 3; i++) {
      const replay = await send(t.url, hook, captured, true);
      expect([replay.status, replay.body.error?.code, replay.body.error?.data.reason]).toEqual([
        409,
        'CONFLICT',
        'replayed',
      ]);
    }
    // The provider's own redelivery (same id, same body) is a replay too: it already deployed.
    const redelivered = await send(t.url, hook, captured);
    expect(redelivered.status).toBe(409);
    expect(await deploymentsOf(t, hook, 'ghcr.io/acme/api:1.4.2')).toBe(1);

    await flushRefusals(t);
    const rejected = (await allEvents(t)).filter(
      (e) =>
        e.type === 'CommandRejected' &&
        e.data.target === 'POST /api/v1/hooks/:hookId' &&
        e.data.code === 'CONFLICT' &&
        e.metadata.actor.principalId === hook.hookId,
    );
    expect(rejected.reduce((n, e) => n + (e.data.count as number), 0)).toBe(4);
  });

  it('a Slipway-form delivery resent within its 5-minute window with a new delivery id deploys once', async () => {
    const hook = await createHook(t, owner, serviceId);
    const captured = slipwayDelivery(hook, { ref: 'refs/tags/v1.5.0' });
    expect((await send(t.url, hook, captured)).status).toBe(202);
    const replay = await send(t.url, hook, captured, true);
    expect([replay.status, replay.body.error?.code, replay.body.error?.data.reason]).toEqual([
      409,
      'CONFLICT',
      'replayed',
    ]);
    expect(await deploymentsOf(t, hook, 'ghcr.io/acme/api:1.5.0')).toBe(1);
  });

  it("a sender's retry signed again under the same delivery id deploys once", async () => {
    const hook = await createHook(t, owner, serviceId);
    const first = slipwayDelivery(hook, tagPush('v1.6.0'));
    expect((await send(t.url, hook, first)).status).toBe(202);
    const body = first.body;
    const ts = String(Number(first.headers['X-Slipway-Timestamp']) + 1);
    const retry = await send(t.url, hook, {
      body,
      headers: {
        ...first.headers,
        'X-Slipway-Timestamp': ts,
        'X-Slipway-Signature': `sha256=${hmac(hook.secret, `${ts}.${body}`)}`,
      },
    });
    expect([retry.status, retry.body.error?.data.reason]).toEqual([409, 'replayed']);
    expect(await deploymentsOf(t, hook, 'ghcr.io/acme/api:1.6.0')).toBe(1);
  });

  it('concurrent identical deliveries deploy once', async () => {
    const hook = await createHook(t, owner, serviceId);
    const captured = githubDelivery(hook, 'registry_package', {
      registry_package: { package_version: { container_metadata: { tag: { name: 'sha-77aa' } } } },
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send(t.url, hook, captured, true)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409, 409, 409, 409]);
    expect(await deploymentsOf(t, hook, 'ghcr.io/acme/api:sha-77aa')).toBe(1);
  });

  it('a new delivery of the image the hook deployed last still deploys (a moving tag pushed again)', async () => {
    const hook = await createHook(t, owner, serviceId);
    for (const pushedAt of [1_800_000_000, 1_800_000_600]) {
      const push = githubDelivery(hook, 'push', {
        push_data: { tag: 'latest', pushed_at: pushedAt },
        repository: { repo_name: 'acme/api' },
      });
      expect((await send(t.url, hook, push)).status).toBe(202);
    }
    expect(await deploymentsOf(t, hook, 'ghcr.io/acme/api:latest')).toBe(2);
  });

  it('refuses an image the hook has already moved past, unless its rule allows rollbacks', async () => {
    const hook = await createHook(t, owner, serviceId);
    for (const tag of ['v2.0.0', 'v2.1.0']) {
      expect((await send(t.url, hook, slipwayDelivery(hook, tagPush(tag)))).status).toBe(202);
    }
    // A freshly signed delivery (not a replay) of the older tag: refused all the same.
    const back = await send(t.url, hook, slipwayDelivery(hook, tagPush('v2.0.0')));
    expect([back.status, back.body.error?.code, back.body.error?.data]).toEqual([
      409,
      'CONFLICT',
      expect.objectContaining({
        reason: 'rollback',
        imageRef: 'ghcr.io/acme/api:2.0.0',
        currentImageRef: 'ghcr.io/acme/api:2.1.0',
      }),
    ]);
    expect(await deploymentsOf(t, hook, 'ghcr.io/acme/api:2.0.0')).toBe(1);
    await flushRefusals(t);
    const recorded = (await allEvents(t)).filter(
      (e) =>
        e.type === 'CommandRejected' &&
        e.data.code === 'CONFLICT' &&
        e.metadata.actor.principalId === hook.hookId,
    );
    expect(recorded).toHaveLength(1);
    // A tag it never deployed is not "older": the hook's own history is the order.
    const fresh = await send(t.url, hook, slipwayDelivery(hook, tagPush('v1.9.9')));
    expect(fresh.status).toBe(202);

    const lenient = await createHook(t, owner, serviceId, [
      { source: 'tag', pattern: 'v*', image: 'ghcr.io/acme/api:{version}', allowRollback: true },
    ]);
    for (const tag of ['v3.0.0', 'v3.1.0', 'v3.0.0']) {
      const res = await send(t.url, lenient, slipwayDelivery(lenient, tagPush(tag)));
      expect(res.status).toBe(202);
    }
    expect(await deploymentsOf(t, lenient, 'ghcr.io/acme/api:3.0.0')).toBe(2);
  });
});

describe('the replay decision is durable', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-hook-replay-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a delivery accepted before a restart is refused after it', async () => {
    let t = await startTestApp({ notes: false, config: { dataDir } });
    const owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const { serviceId } = await readyService(t.url, owner);
    const hook = await createHook(t, owner, serviceId);
    const captured = githubDelivery(hook, 'push', { ref: 'refs/tags/v4.0.0' });
    const older = slipwayDelivery(hook, tagPush('v3.9.0'));
    expect((await send(t.url, hook, older)).status).toBe(202);
    expect((await send(t.url, hook, captured)).status).toBe(202);
    await t.close();

    t = await startTestApp({ notes: false, config: { dataDir } });
    try {
      const replay = await send(t.url, hook, captured, true);
      expect([replay.status, replay.body.error?.data.reason]).toEqual([409, 'replayed']);
      const back = await send(t.url, hook, slipwayDelivery(hook, tagPush('v3.9.0')));
      expect([back.status, back.body.error?.data.reason]).toEqual([409, 'rollback']);
      expect(await deploymentsOf(t, hook)).toBe(2);
    } finally {
      await t.close();
    }
  });
});
