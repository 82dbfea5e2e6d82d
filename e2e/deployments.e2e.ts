import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import {
  COMPOSE,
  FINGERPRINT,
  PRIVATE_KEY,
  data,
  readyService,
  runToSuccess,
} from './support/deployments.js';
import { bearer, call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('deployments over HTTP', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;
  let serviceId: string;
  let serverId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const op = await signUp(t.url, 'operator@example.com');
    data(
      await call(t.url, 'POST', 'changeUserRole', owner, { userId: op.userId, role: 'operator' }),
    );
    operator = cookieAuth(op.cookie);
    ({ serviceId, serverId } = await readyService(t.url, owner));
  });
  afterAll(async () => t.close());

  it('registers a server whose host key must be approved as pinned, never returning the key', async () => {
    const server = data<{ serverId: string; status: string }>(
      await call(t.url, 'POST', 'registerServer', owner, {
        name: 'edge-1',
        host: 'edge-1.example.invalid',
        sshUser: 'deploy',
        privateKey: PRIVATE_KEY,
        hostKeyFingerprint: FINGERPRINT,
        labels: ['zone=eu'],
      }),
    );
    expect(server.status).toBe('pending-host-key');
    const wrong = await call(t.url, 'POST', 'approveServerHostKey', owner, {
      serverId: server.serverId,
      fingerprint: `SHA256:${'B'.repeat(43)}`,
    });
    expect([wrong.status, wrong.body.error.code]).toEqual([409, 'CONFLICT']);
    const service = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'edge-app',
        environment: 'production',
        serverId: server.serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      }),
    );
    const early = await call(t.url, 'POST', 'triggerDeploy', owner, {
      serviceId: service.serviceId,
      imageTag: 'ghcr.io/acme/api:1.0.0',
    });
    expect([early.status, early.body.error.code]).toEqual([409, 'CONFLICT']);
    const plan = data<{ isReady: boolean }>(
      await call(t.url, 'GET', 'deploymentPlan', owner, {
        serviceId: service.serviceId,
        imageTag: 'ghcr.io/acme/api:1.0.0',
      }),
    );
    expect(plan.isReady).toBe(false);
    const dup = await call(t.url, 'POST', 'registerServer', owner, {
      name: 'edge-1',
      host: 'x.example.invalid',
      sshUser: 'deploy',
      privateKey: PRIVATE_KEY,
      hostKeyFingerprint: FINGERPRINT,
    });
    expect(dup.status).toBe(409);
    const inventory = await call(t.url, 'GET', 'infrastructureInventory', owner);
    expect(JSON.stringify(inventory.body)).not.toMatch(
      /PRIVATE KEY|c2VjcmV0|credential|postgres:\/\/db/,
    );
    expect(
      data<{ totals: { serversAwaitingHostKeyApproval: number } }>(inventory).totals
        .serversAwaitingHostKeyApproval,
    ).toBe(1);
  });

  it('validates services: compose, image repository, names', async () => {
    const badCompose = await call(t.url, 'POST', 'registerService', owner, {
      name: 'web',
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/web',
      compose: 'services:\n  web:\n    image: nginx\n',
    });
    expect(badCompose.status).toBe(400);
    expect(badCompose.body.error.data.issues[0].path).toBe('compose.services.web.image');
    const dup = await call(t.url, 'POST', 'registerService', owner, {
      name: 'api',
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
    });
    expect(dup.status).toBe(409);
    const badTag = await call(t.url, 'POST', 'triggerDeploy', owner, {
      serviceId,
      imageTag: 'ghcr.io/acme/api',
    });
    expect(badTag.status).toBe(400);
    const otherRepo = await call(t.url, 'POST', 'triggerDeploy', owner, {
      serviceId,
      imageTag: 'ghcr.io/evil/api:1',
    });
    expect(otherRepo.status).toBe(400);
  });

  it('plans, triggers (visible at once), shows, cancels; cancelling again is a conflict', async () => {
    const plan = data<{
      isReady: boolean;
      executeCommand: string;
      preflightChecks: { check: string; status: string }[];
    }>(
      await call(t.url, 'GET', 'deploymentPlan', operator, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.1.0',
      }),
    );
    expect(plan.isReady).toBe(true);
    expect(plan.executeCommand).toBe(`slipway deploy ${serviceId} ghcr.io/acme/api:1.1.0 --yes`);
    expect(plan.preflightChecks.map((c) => c.check)).toEqual(
      expect.arrayContaining([
        'host-key-approved',
        'image-reference-valid',
        'compose-names-image',
        'env-vars-resolve',
        'no-deployment-running',
        'approval',
      ]),
    );
    const triggered = data<{ status: string; deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', operator, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.1.0',
      }),
    );
    expect(triggered.status).toBe('queued');
    const recent = data<{ items: { id: string; status: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', operator, { limit: 5 }),
    );
    expect(recent.items[0]).toMatchObject({ id: triggered.deploymentId, status: 'queued' });
    const details = data<{
      snapshot: { env: { name: string; value: string }[] };
      queue: { position: number };
      requestedBy: { authMethod: string };
    }>(
      await call(t.url, 'GET', 'deploymentDetails', operator, {
        deploymentId: triggered.deploymentId,
      }),
    );
    expect(details.queue.position).toBe(1);
    expect(details.requestedBy.authMethod).toBe('session');
    expect(details.snapshot.env).toEqual([
      { name: 'DATABASE_URL', value: '********', secret: true },
      { name: 'LOG_LEVEL', value: 'info', secret: false },
    ]);
    const cancelled = data<{ status: string }>(
      await call(t.url, 'POST', 'cancelDeployment', operator, {
        deploymentId: triggered.deploymentId,
      }),
    );
    expect(cancelled.status).toBe('cancelled');
    const again = await call(t.url, 'POST', 'cancelDeployment', operator, {
      deploymentId: triggered.deploymentId,
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'CONFLICT']);
  });

  it('plans and executes a rollback that replays the old frozen snapshot', async () => {
    const first = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', operator, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:2.0.0',
      }),
    );
    await runToSuccess(t.app, first.deploymentId, serviceId, 'ghcr.io/acme/api:2.0.0');
    data(
      await call(t.url, 'POST', 'updateService', owner, {
        serviceId,
        env: [{ name: 'LOG_LEVEL', value: 'debug' }],
      }),
    );
    const second = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', operator, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:2.1.0',
      }),
    );
    await runToSuccess(t.app, second.deploymentId, serviceId, 'ghcr.io/acme/api:2.1.0');

    const plan = data<{ isReady: boolean; executeCommand: string }>(
      await call(t.url, 'GET', 'rollbackPlan', operator, { serviceId }),
    );
    expect(plan).toMatchObject({
      isReady: true,
      executeCommand: `slipway rollback ${serviceId} ${first.deploymentId} --yes`,
    });
    const diff = data<{
      diff: { image: { changed: boolean }; env: { name: string; change: string }[] };
    }>(
      await call(t.url, 'GET', 'configDiff', operator, {
        fromDeploymentId: first.deploymentId,
        toDeploymentId: second.deploymentId,
      }),
    );
    expect(diff.diff.image.changed).toBe(true);
    expect(diff.diff.env).toEqual([
      { name: 'DATABASE_URL', change: 'removed', secret: true },
      { name: 'LOG_LEVEL', change: 'changed', secret: false },
    ]);

    const rollback = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'executeRollback', operator, {
        serviceId,
        targetDeploymentId: first.deploymentId,
      }),
    );
    const details = data<{
      trigger: string;
      rollbackOf: string;
      imageRef: string;
      snapshot: { env: { name: string }[] };
    }>(
      await call(t.url, 'GET', 'deploymentDetails', operator, {
        deploymentId: rollback.deploymentId,
      }),
    );
    expect(details).toMatchObject({
      trigger: 'rollback',
      rollbackOf: first.deploymentId,
      imageRef: 'ghcr.io/acme/api:2.0.0',
    });
    expect(details.snapshot.env.map((e) => e.name)).toEqual(['DATABASE_URL', 'LOG_LEVEL']);
    const notSucceeded = await call(t.url, 'POST', 'executeRollback', operator, {
      serviceId,
      targetDeploymentId: rollback.deploymentId,
    });
    expect(notSucceeded.status).toBe(409);
  });

  it('records a backup and plans its restore through an approval', async () => {
    const backup = data<{ backupId: string }>(
      await call(t.url, 'POST', 'recordBackup', operator, {
        serviceId,
        location: 's3://backups/api-2026-11-22.dump',
        checksum: `sha256:${'d'.repeat(64)}`,
        sizeBytes: 1024,
      }),
    );
    const plan = data<{ isReady: boolean; approvalRequired: boolean; executeCommand: string }>(
      await call(t.url, 'GET', 'backupRestorePlan', operator, { backupId: backup.backupId }),
    );
    expect(plan).toMatchObject({ isReady: true, approvalRequired: true });
    expect(plan.executeCommand).toContain(`--backup ${backup.backupId}`);
  });

  it('changes nothing when planning: no event is appended', async () => {
    const events = t.app.get<EventStore>(EVENT_STORE);
    const before = await events.headPosition();
    const { items } = data<{ items: { id: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { limit: 2 }),
    );
    await call(t.url, 'GET', 'deploymentPlan', owner, {
      serviceId,
      imageTag: 'ghcr.io/acme/api:9',
    });
    await call(t.url, 'GET', 'composeDeploymentPlan', owner, { serverId, compose: COMPOSE });
    await call(t.url, 'GET', 'rollbackPlan', owner, { serviceId });
    await call(t.url, 'GET', 'configDiff', owner, {
      fromDeploymentId: items[1].id,
      toDeploymentId: items[0].id,
    });
    expect(await events.headPosition()).toBe(before);
  });
});

describe('approvals', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;
  let agentToken: string;
  let serviceId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const op = await signUp(t.url, 'operator@example.com');
    data(
      await call(t.url, 'POST', 'changeUserRole', owner, { userId: op.userId, role: 'operator' }),
    );
    operator = cookieAuth(op.cookie);
    ({ serviceId } = await readyService(t.url, owner, { approvalRule: 'agents' }));
    const agent = data<{ principalId: string }>(
      await call(t.url, 'POST', 'createAgent', owner, {
        name: 'ci',
        preset: 'agent:minimal-write',
      }),
    );
    agentToken = data<{ token: string }>(
      await call(t.url, 'POST', 'generateAgentToken', owner, {
        principalId: agent.principalId,
        tokenName: 'ci',
        expiresInDays: 7,
      }),
    ).token;
  });
  afterAll(async () => t.close());

  it('turns an agent’s deploy into a pending approval; an operator approves; the deployment is created once', async () => {
    const pending = data<{ status: string; approvalId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', bearer(agentToken), {
        serviceId,
        imageTag: 'ghcr.io/acme/api:3.0.0',
        reason: 'release 3.0 for the billing fix',
      }),
    );
    expect(pending.status).toBe('pending_approval');
    expect(
      data<{ items: unknown[] }>(
        await call(t.url, 'GET', 'recentDeployments', owner, { serviceId }),
      ).items,
    ).toHaveLength(0);
    const queue = data<{ items: { id: string; status: string; reason: string }[] }>(
      await call(t.url, 'GET', 'approvalQueue', operator, { status: 'pending' }),
    );
    expect(queue.items).toEqual([
      expect.objectContaining({
        id: pending.approvalId,
        status: 'pending',
        reason: 'release 3.0 for the billing fix',
      }),
    ]);
    const agentDecides = await call(t.url, 'POST', 'approveRequest', bearer(agentToken), {
      approvalId: pending.approvalId,
    });
    expect(agentDecides.status).toBe(403);

    const approved = data<{ status: string; deploymentId: string }>(
      await call(t.url, 'POST', 'approveRequest', operator, { approvalId: pending.approvalId }),
    );
    expect(approved.status).toBe('approved');
    const retried = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'approveRequest', operator, { approvalId: pending.approvalId }),
    );
    expect(retried.deploymentId).toBe(approved.deploymentId);
    const deployments = data<{
      items: { id: string; trigger: string; requestedBy: { kind: string } }[];
    }>(await call(t.url, 'GET', 'recentDeployments', owner, { serviceId }));
    expect(deployments.items).toHaveLength(1);
    expect(deployments.items[0]).toMatchObject({
      id: approved.deploymentId,
      trigger: 'approval',
      requestedBy: { kind: 'agent' },
    });
    const reject = await call(t.url, 'POST', 'rejectRequest', owner, {
      approvalId: pending.approvalId,
    });
    expect(reject.status).toBe(409);
  });

  it('refuses self-approval and lets a human deploy directly under the agents rule', async () => {
    const asked = data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', operator, {
        action: 'deploy',
        serviceId,
        imageTag: 'ghcr.io/acme/api:3.1.0',
        reason: 'please double-check this one',
      }),
    );
    const self = await call(t.url, 'POST', 'approveRequest', operator, {
      approvalId: asked.approvalId,
    });
    expect([self.status, self.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const rejected = data<{ status: string }>(
      await call(t.url, 'POST', 'rejectRequest', owner, {
        approvalId: asked.approvalId,
        note: 'not this week',
      }),
    );
    expect(rejected.status).toBe('rejected');
    const direct = data<{ status: string }>(
      await call(t.url, 'POST', 'triggerDeploy', operator, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:3.1.0',
      }),
    );
    expect(direct.status).toBe('queued');
    const short = await call(t.url, 'POST', 'requestApproval', operator, {
      action: 'deploy',
      serviceId,
      imageTag: 'ghcr.io/acme/api:3.1.0',
      reason: 'too short',
    });
    expect(short.status).toBe(400);
  });
});

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
