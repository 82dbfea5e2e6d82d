import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { data, runToSuccess } from './support/deployments.js';
import { call, cookieAuth, logIn } from './support/identity.js';
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
});
