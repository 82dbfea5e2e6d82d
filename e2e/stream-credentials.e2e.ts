import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { CredentialWatch } from '../src/access/credential-watch.js';
import { cli, cliHome } from './support/cli.js';
import { data, readyService } from './support/deployments.js';
import { bearer, call, cookieAuth, signUp } from './support/identity.js';
import { agentToken, answer, mcpClient } from './support/mcp.js';
import { openSse, type SseStream } from './support/sse.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const IMAGE = 'ghcr.io/acme/api:4.2.0';

/** A few credential checks (every 2 s by default): a stream still open after them never ends. */
const WITHIN_CHECKS = 10_000;

/** The `end` event a stream closes with once its credential is gone, as `{reason, code}`. */
async function endOf(stream: SseStream, timeoutMs?: number): Promise<unknown> {
  const end = await stream.waitFor((e) => e.event === 'end', timeoutMs);
  await stream.ended;
  return JSON.parse(end.data);
}

/**
 * Responses that outlive their request hold the credential they were opened with to the guard's
 * rules for as long as they last: revoking the token, invalidating its principal, deactivating
 * the user or ending the session ends them, with the reason, rather than letting them run on.
 * The runner is off here, so the deployments followed stay queued and their streams stay open.
 */
describe('open streams and waits end with their credential', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let deploymentId: string;

  const logStream = (auth: Record<string, string>) =>
    openSse(`${t.url}/api/v1/deployments/${deploymentId}/logs/stream`, auth);
  const projectionStream = (auth: Record<string, string>) =>
    openSse(`${t.url}/api/v1/projections/stream`, auth);

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
    deploymentId = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: IMAGE }),
    ).deploymentId;
  });
  afterAll(async () => t.close());

  it('ends a deployment log stream once its token is revoked, and the token opens no other', async () => {
    const agent = await agentToken(t.url, owner, 'log-reader', 'agent:read-only');
    const stream = await logStream(bearer(agent.token));
    expect(stream.status).toBe(200);
    data(await call(t.url, 'POST', 'revokeToken', owner, { tokenId: agent.tokenId }));
    expect(await endOf(stream)).toEqual({ reason: 'credential revoked', code: 'TOKEN_REVOKED' });
    const again = await request(t.url)
      .get(`/api/v1/deployments/${deploymentId}/logs/stream`)
      .set(bearer(agent.token));
    expect([again.status, again.body.error.code]).toEqual([401, 'TOKEN_REVOKED']);
  });

  it("ends the projections stream once the token's principal is invalidated", async () => {
    const agent = await agentToken(t.url, owner, 'watcher', 'agent:read-only');
    const stream = await projectionStream(bearer(agent.token));
    await stream.waitFor((e) => e.event === 'projections');
    data(
      await call(t.url, 'POST', 'invalidatePrincipal', owner, { principalId: agent.principalId }),
    );
    expect(await endOf(stream)).toEqual({
      reason: 'credential invalidated',
      code: 'TOKEN_INVALIDATED',
    });
  });

  it("ends a deactivated user's session streams, and the other user's stream goes on", async () => {
    const viewer = await signUp(t.url, 'viewer@example.com');
    const logs = await logStream(cookieAuth(viewer.cookie));
    const positions = await projectionStream(cookieAuth(viewer.cookie));
    const bystander = await projectionStream(owner);
    expect([logs.status, positions.status, bystander.status]).toEqual([200, 200, 200]);
    data(await call(t.url, 'POST', 'deactivateUser', owner, { userId: viewer.userId }));
    const ended = { reason: 'session ended', code: 'SESSION_EXPIRED' };
    expect(await endOf(logs)).toEqual(ended);
    expect(await endOf(positions)).toEqual(ended);
    // The owner's stream, checked on the same passes, is still sending.
    const seen = bystander.events.length;
    await bystander.waitFor(
      (e) => e.event === 'projections' && bystander.events.indexOf(e) >= seen,
    );
    expect(bystander.events.some((e) => e.event === 'end')).toBe(false);
    bystander.close();
  });

  it('ends a session stream when the session is logged out', async () => {
    const member = await signUp(t.url, 'member@example.com');
    const stream = await projectionStream(cookieAuth(member.cookie));
    await stream.waitFor((e) => e.event === 'projections');
    const out = await request(t.url)
      .post('/api/auth/logout')
      .set(cookieAuth(member.cookie))
      .send({});
    expect(out.status).toBeLessThan(300);
    expect(await endOf(stream)).toEqual({ reason: 'session ended', code: 'SESSION_EXPIRED' });
  });

  it('makes `slipway logs --follow` fail like a refused request when its token is revoked', async () => {
    const agent = await agentToken(t.url, owner, 'cli-reader', 'agent:read-only');
    const env = { SLIPWAY_URL: t.url, SLIPWAY_TOKEN: agent.token };
    const following = cli(cliHome(), ['logs', deploymentId, '--follow', '--json'], env);
    // The deployment stays queued: revoke once the CLI's stream is watched.
    await waitUntil(async () => t.app.get(CredentialWatch).size() > 0);
    data(await call(t.url, 'POST', 'revokeToken', owner, { tokenId: agent.tokenId }));
    const result = await following;
    expect([result.code, result.json.error?.code]).toEqual([2, 'TOKEN_REVOKED']);
    expect(result.json.error?.message).toContain('credential revoked');
  });

  describe("a stream of something in a project, once the caller's role there is gone", () => {
    let inPayments: string;
    let servicePayments: string;
    const grant = async (principalId: string, role: 'operator' | 'viewer') =>
      data(
        await call(t.url, 'POST', 'grantProjectRole', owner, {
          projectId: 'payments',
          principalId,
          role,
        }),
      );
    const streamOf = (auth: Record<string, string>) =>
      openSse(`${t.url}/api/v1/deployments/${inPayments}/logs/stream`, auth);
    const withdrawn = { reason: 'access withdrawn', code: 'FORBIDDEN' };

    beforeAll(async () => {
      for (const [projectId, name] of [
        ['payments', 'Payments'],
        ['search', 'Search'],
      ]) {
        data(await call(t.url, 'POST', 'createProject', owner, { projectId, name }));
      }
      servicePayments = (await readyService(t.url, owner, { name: 'pay', projectId: 'payments' }))
        .serviceId;
      inPayments = data<{ deploymentId: string }>(
        await call(t.url, 'POST', 'triggerDeploy', owner, {
          serviceId: servicePayments,
          imageTag: IMAGE,
        }),
      ).deploymentId;
    });

    it('ends a deployment log stream once the grant it was opened on is revoked', async () => {
      // A team viewer reaches `payments` through its grant alone.
      const member = await signUp(t.url, 'granted@example.com');
      const auth = cookieAuth(member.cookie);
      await grant(member.userId, 'operator');
      const stream = await streamOf(auth);
      try {
        expect(stream.status).toBe(200);
        data(
          await call(t.url, 'POST', 'revokeProjectRole', owner, {
            projectId: 'payments',
            principalId: member.userId,
          }),
        );
        expect(await endOf(stream, WITHIN_CHECKS)).toEqual(withdrawn);
      } finally {
        stream.close();
      }
      const again = await request(t.url)
        .get(`/api/v1/deployments/${inPayments}/logs/stream`)
        .set(auth);
      expect([again.status, again.body.error.code]).toEqual([403, 'FORBIDDEN']);
    });

    it('ends it once the service is moved to a project the caller has no role in', async () => {
      const member = await signUp(t.url, 'moved@example.com');
      await grant(member.userId, 'viewer');
      const stream = await streamOf(cookieAuth(member.cookie));
      try {
        expect(stream.status).toBe(200);
        data(
          await call(t.url, 'POST', 'moveToProject', owner, {
            kind: 'service',
            resourceId: servicePayments,
            projectId: 'search',
          }),
        );
        expect(await endOf(stream, WITHIN_CHECKS)).toEqual(withdrawn);
      } finally {
        stream.close();
        data(
          await call(t.url, 'POST', 'moveToProject', owner, {
            kind: 'service',
            resourceId: servicePayments,
            projectId: 'payments',
          }),
        );
      }
    });
  });

  describe('an MCP wait', () => {
    let client: Client;
    afterAll(async () => client?.close());

    it('ends once the waiting token is revoked, saying why', async () => {
      const agent = await agentToken(t.url, owner, 'deployer', 'agent:full');
      client = await mcpClient(t.url, agent.token);
      const plan = answer<{ planId: string }>(
        await client.callTool({
          name: 'deploymentPlan',
          arguments: { serviceId, imageTag: IMAGE },
        }),
      );
      const before = await queued(t, owner, serviceId);
      const waiting = client.callTool({
        name: 'triggerDeploy',
        arguments: { serviceId, imageTag: IMAGE, planId: plan.planId, wait: true },
      });
      await waitUntil(async () => (await queued(t, owner, serviceId)).length > before.length);
      data(await call(t.url, 'POST', 'revokeToken', owner, { tokenId: agent.tokenId }));
      const result = answer<{ wait: Record<string, unknown> }>(await waiting);
      expect(result.wait).toMatchObject({
        finished: false,
        ended: { reason: 'credential revoked', code: 'TOKEN_REVOKED' },
      });
    });
  });
});

async function queued(t: TestApp, owner: Record<string, string>, serviceId: string) {
  return data<{ items: { id: string }[] }>(
    await call(t.url, 'GET', 'recentDeployments', owner, { serviceId, status: 'queued' }),
  ).items;
}

async function waitUntil(check: () => Promise<boolean>, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the condition was never met');
}
