import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import {
  COMPOSE,
  FINGERPRINT,
  PRIVATE_KEY,
  data,
  readyService,
  runToSuccess,
} from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
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
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
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
