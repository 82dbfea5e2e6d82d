import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { allEvents, flushRefusals } from './support/audit.js';
import { COMPOSE, data } from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  waitForDeployment,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Hook {
  hookId: string;
  url: string;
  secret: string;
}

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload).digest('hex');

describe('inbound deploy hooks (signed deliveries deploy through the runner over real SSH)', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let admin: Record<string, string>;
  let serviceId: string;
  let gatedServiceId: string;
  let hook: Hook;

  /** A delivery in Slipway's form, signed with `secret` at `at` (unix seconds). */
  const deliver = (
    h: Hook,
    payload: unknown,
    options: { secret?: string; at?: number; deliveryId?: string } = {},
  ) => {
    const body = JSON.stringify(payload);
    const ts = String(options.at ?? Math.floor(Date.now() / 1000));
    return request(t.url)
      .post(`/api/v1/hooks/${h.hookId}`)
      .set('Content-Type', 'application/json')
      .set('X-Slipway-Timestamp', ts)
      .set('X-Slipway-Delivery', options.deliveryId ?? randomUUID())
      .set('X-Slipway-Signature', `sha256=${sign(options.secret ?? h.secret, `${ts}.${body}`)}`)
      .send(body);
  };

  const createHook = async (auth: Record<string, string>, svc: string, name: string) =>
    data<Hook>(
      await call(t.url, 'POST', 'createDeployWebhook', auth, {
        serviceId: svc,
        name,
        rules: [
          { source: 'tag', pattern: 'v*', image: 'ghcr.io/acme/api:{version}' },
          { source: 'image', pattern: '*', image: 'ghcr.io/acme/api:{tag}' },
        ],
      }),
    );

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    const register = async (name: string, approvalRule: string) =>
      data<{ serviceId: string }>(
        await call(t.url, 'POST', 'registerService', owner, {
          name,
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
          approvalRule,
        }),
      ).serviceId;
    serviceId = await register('api', 'none');
    gatedServiceId = await register('gated', 'agents');
    sshd.setMode('success');
    hook = await createHook(owner, serviceId, 'ci');
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  it('answers the URL and a secret once; lists never show the secret', async () => {
    expect(hook.url).toBe(`${t.config.publicUrl}/api/v1/hooks/${hook.hookId}`);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = data<{ items: Record<string, unknown>[] }>(
      await call(t.url, 'GET', 'deployWebhooks', owner, { serviceId }),
    );
    expect(list.items.map((h) => h.hookId)).toEqual([hook.hookId]);
    expect(JSON.stringify(list)).not.toContain(hook.secret);
    const events = JSON.stringify((await allEvents(t)).map((e) => [e.data, e.metadata]));
    expect(events).not.toContain(hook.secret);
  });

  it('refuses a rule whose image is not of the service, or has no {tag}', async () => {
    for (const image of ['ghcr.io/evil/api:{tag}', 'ghcr.io/acme/api:latest']) {
      const res = await call(t.url, 'POST', 'createDeployWebhook', owner, {
        serviceId,
        name: 'bad',
        rules: [{ source: 'tag', pattern: '*', image }],
      });
      expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    }
  });

  it('a valid tag push deploys through the queue, the runner and the audit trail, as the hook', async () => {
    const res = await deliver(hook, { ref: 'refs/tags/v1.4.2' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'queued',
      hookId: hook.hookId,
      imageRef: 'ghcr.io/acme/api:1.4.2',
      created: true,
    });
    const done = await waitForDeployment<{ status: string; trigger: string }>(
      t,
      owner,
      res.body.deploymentId,
      ['succeeded', 'failed'],
      20_000,
      25,
    );
    expect([done.status, done.trigger]).toEqual(['succeeded', 'hook']);
    const triggered = (await allEvents(t)).find(
      (e) => e.type === 'DeploymentTriggered' && e.data.deploymentId === res.body.deploymentId,
    )!;
    expect(triggered.metadata.actor).toEqual({
      principalId: hook.hookId,
      kind: 'agent',
      role: 'operator',
    });
    expect(triggered.metadata.authMethod).toBe('hook');
  });

  it("accepts GitHub's X-Hub-Signature-256 form and answers its ping", async () => {
    const github = (event: string, payload: unknown, secret = hook.secret) => {
      const body = JSON.stringify(payload);
      return request(t.url)
        .post(`/api/v1/hooks/${hook.hookId}`)
        .set('Content-Type', 'application/json')
        .set('X-GitHub-Event', event)
        .set('X-GitHub-Delivery', randomUUID())
        .set('X-Hub-Signature-256', `sha256=${sign(secret, body)}`)
        .send(body);
    };
    expect((await github('ping', { zen: 'hi' })).body).toEqual({
      status: 'pong',
      hookId: hook.hookId,
    });
    const pushed = await github('registry_package', {
      registry_package: {
        package_version: { container_metadata: { tag: { name: 'sha-1a2b3c' } } },
      },
    });
    expect(pushed.status).toBe(202);
    expect(pushed.body).toMatchObject({
      status: 'queued',
      imageRef: 'ghcr.io/acme/api:sha-1a2b3c',
    });
    const forged = await github('push', { ref: 'refs/tags/v9.9.9' }, 'whsec_wrong');
    expect([forged.status, forged.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
  });

  it('ignores a push no rule maps (a branch), deploying nothing', async () => {
    const res = await deliver(hook, { ref: 'refs/heads/main' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'ignored' });
  });

  it('refuses forged, stale, replayed, unsigned and unknown deliveries, and audits the refusals', async () => {
    const before = (await allEvents(t)).filter((e) => e.type === 'DeploymentTriggered').length;
    const forged = await deliver(hook, { ref: 'refs/tags/v6.6.6' }, { secret: 'whsec_guess' });
    expect([forged.status, forged.body.error.code, forged.body.error.data.reason]).toEqual([
      401,
      'TOKEN_INVALID',
      'forged',
    ]);
    const stale = await deliver(
      hook,
      { ref: 'refs/tags/v6.6.7' },
      { at: Math.floor(Date.now() / 1000) - 600 },
    );
    expect([stale.status, stale.body.error.code, stale.body.error.data.reason]).toEqual([
      401,
      'TOKEN_EXPIRED',
      'stale',
    ]);
    const deliveryId = randomUUID();
    const first = await deliver(hook, { ref: 'refs/tags/v1.5.0' }, { deliveryId });
    expect(first.status).toBe(202);
    const replay = await deliver(hook, { ref: 'refs/tags/v1.5.0' }, { deliveryId });
    expect([replay.status, replay.body.error.code, replay.body.error.data.reason]).toEqual([
      409,
      'CONFLICT',
      'replayed',
    ]);
    const unsigned = await request(t.url)
      .post(`/api/v1/hooks/${hook.hookId}`)
      .send({ ref: 'refs/tags/v6.6.8' });
    expect([unsigned.status, unsigned.body.error.code]).toEqual([401, 'AUTH_REQUIRED']);
    const unknown = await deliver({ ...hook, hookId: randomUUID() }, { ref: 'refs/tags/v1' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const tooBig = await deliver(hook, { ref: 'refs/tags/v1.0.0', pad: 'x'.repeat(300 * 1024) });
    expect([tooBig.status, tooBig.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);

    await flushRefusals(t);
    const events = await allEvents(t);
    // One deployment for the one valid delivery, none for the others.
    expect(events.filter((e) => e.type === 'DeploymentTriggered').length).toBe(before + 1);
    const refusals = events.filter(
      (e) =>
        (e.type === 'AccessDenied' || e.type === 'CommandRejected') &&
        e.data.target === 'POST /api/v1/hooks/:hookId',
    );
    const codes = refusals.map((e) => e.data.code);
    expect(codes).toEqual(
      expect.arrayContaining(['TOKEN_INVALID', 'TOKEN_EXPIRED', 'CONFLICT', 'AUTH_REQUIRED']),
    );
    const forgedRecord = refusals.find((e) => e.data.code === 'TOKEN_EXPIRED')!;
    expect(forgedRecord.metadata.actor.principalId).toBe(hook.hookId);
  });

  it('a gated service turns the delivery into an approval that its creator may not decide', async () => {
    const gatedHook = await createHook(owner, gatedServiceId, 'gated-ci');
    const res = await deliver(gatedHook, { ref: 'refs/tags/v2.0.0' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'pending_approval' });
    const byCreator = await call(t.url, 'POST', 'approveRequest', owner, {
      approvalId: res.body.approvalId,
    });
    expect(byCreator.status).toBe(403);
    const approved = data<{ status: string; deploymentId: string }>(
      await call(t.url, 'POST', 'approveRequest', admin, { approvalId: res.body.approvalId }),
    );
    expect(approved.status).toBe('approved');
    const done = await waitForDeployment<{ status: string }>(
      t,
      owner,
      approved.deploymentId,
      ['succeeded', 'failed'],
      20_000,
      25,
    );
    expect(done.status).toBe('succeeded');
  });

  it('a revoked hook is refused', async () => {
    const spare = await createHook(owner, serviceId, 'spare');
    data(await call(t.url, 'POST', 'revokeDeployWebhook', owner, { hookId: spare.hookId }));
    const res = await deliver(spare, { ref: 'refs/tags/v3.0.0' });
    expect([res.status, res.body.error.code]).toEqual([401, 'TOKEN_REVOKED']);
  });

  it('refuses hook management to viewers, agents-less scopes and anonymous callers', async () => {
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    const input = {
      serviceId,
      name: 'x',
      rules: [{ source: 'tag', pattern: '*', image: 'ghcr.io/acme/api:{tag}' }],
    };
    const anon = await call(t.url, 'POST', 'createDeployWebhook', {}, input);
    expect([anon.status, anon.body.error.code]).toEqual([401, 'AUTH_REQUIRED']);
    const asViewer = await call(t.url, 'POST', 'createDeployWebhook', viewer, input);
    expect([asViewer.status, asViewer.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const revoke = await call(t.url, 'POST', 'revokeDeployWebhook', viewer, {
      hookId: hook.hookId,
    });
    expect(revoke.status).toBe(403);
  });
});
