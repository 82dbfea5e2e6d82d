import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { allEvents } from './support/audit.js';
import { COMPOSE, data } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const NOBODY = '00000000-0000-4000-8000-000000000000';

/**
 * Restores over the real sshd: the artifact triggerBackup took (through SSH, from the stand-in
 * docker's binary dump) goes back on the restore command's standard input, after its SHA-256 is
 * checked against the recorded one.
 */
describe('restoreBackup over real SSH', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let admin: Record<string, string>;
  let serviceId: string;
  let restored: string;

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    ownerCookie = (await signUp(t.url, 'owner@example.com')).cookie;
    owner = cookieAuth(ownerCookie);
    admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    restored = join(sshd.dir, 'restored.bin');
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    ({ serviceId } = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'db',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
        backupCommand: 'docker exec db pg_dump app',
        // The server side of a restore: what arrives on stdin lands in a file the test reads.
        restoreCommand: `cat > '${restored}'`,
      }),
    ));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  const backup = async () =>
    data<{ backupId: string; location: string }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId }),
    );
  const approvedRestore = async (backupId: string) => {
    const { approvalId } = data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', admin, {
        action: 'restore',
        serviceId,
        backupId,
        reason: 'restore the database after a bad migration',
      }),
    );
    data(await call(t.url, 'POST', 'approveRequest', owner, { approvalId }));
    return approvalId;
  };
  const restore = (auth: Record<string, string>, input: unknown) =>
    call(t.url, 'POST', 'restoreBackup', auth, input);

  it('plans, then runs an approved restore once: the artifact arrives byte for byte', async () => {
    const taken = await backup();
    const plan = data<{ isReady: boolean; preflightChecks: { check: string; status: string }[] }>(
      await call(t.url, 'GET', 'backupRestorePlan', owner, { backupId: taken.backupId }),
    );
    expect(plan.preflightChecks).toContainEqual(
      expect.objectContaining({ check: 'restore-command', status: 'ok' }),
    );
    const { approvalId: pending } = data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', admin, {
        action: 'restore',
        serviceId,
        backupId: taken.backupId,
        reason: 'restore still waiting for a decision',
      }),
    );
    expect((await restore(owner, { backupId: taken.backupId, approvalId: pending })).status).toBe(
      409,
    );
    data(await call(t.url, 'POST', 'approveRequest', owner, { approvalId: pending }));

    const done = data<{ status: string; restoreId: string }>(
      await restore(admin, { backupId: taken.backupId, approvalId: pending }),
    );
    expect(done).toMatchObject({ status: 'succeeded', reason: null, exitCode: 0 });
    expect(readFileSync(restored)).toEqual(readFileSync(taken.location));

    const replay = await restore(owner, { backupId: taken.backupId, approvalId: pending });
    expect(replay.status).toBe(409);
    expect(replay.body.error.message).toMatch(/already used/);
    const events = (await allEvents(t)).filter((e) => e.stream === `restore-${pending}`);
    expect(events.map((e) => e.type)).toEqual(['RestoreStarted', 'RestoreSucceeded']);
  });

  it('refuses and records an artifact whose SHA-256 is not the recorded one; nothing reaches the server', async () => {
    const taken = await backup();
    const approvalId = await approvedRestore(taken.backupId);
    rmSync(restored, { force: true });
    appendFileSync(taken.location, 'tampered');
    const res = await restore(owner, { backupId: taken.backupId, approvalId });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      data: {
        expected: expect.stringMatching(/^sha256:/),
        actual: expect.stringMatching(/^sha256:/),
      },
    });
    expect(res.body.error.data.expected).not.toBe(res.body.error.data.actual);
    expect(existsSync(restored)).toBe(false);
    const failed = (await allEvents(t)).find(
      (e) => e.stream === `restore-${approvalId}` && e.type === 'RestoreFailed',
    );
    expect(failed?.data).toMatchObject({ reason: 'checksum-mismatch', backupId: taken.backupId });
  });

  it('refuses an approval for another backup, and a rejected one', async () => {
    const first = await backup();
    const second = await backup();
    const approvalId = await approvedRestore(first.backupId);
    expect((await restore(owner, { backupId: second.backupId, approvalId })).status).toBe(409);
    const { approvalId: rejected } = data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', admin, {
        action: 'restore',
        serviceId,
        backupId: second.backupId,
        reason: 'a restore that will be rejected',
      }),
    );
    data(await call(t.url, 'POST', 'rejectRequest', owner, { approvalId: rejected }));
    expect((await restore(owner, { backupId: second.backupId, approvalId: rejected })).status).toBe(
      409,
    );
  });

  it('refuses the wrong role, a narrow token, no credentials and malformed input', async () => {
    const taken = await backup();
    const approvalId = await approvedRestore(taken.backupId);
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    expect((await restore(viewer, { backupId: taken.backupId, approvalId })).status).toBe(403);
    const narrow = await createToken(t.url, ownerCookie, ['deploy:start'], 1);
    const byToken = await restore(bearer(narrow.token), { backupId: taken.backupId, approvalId });
    expect(byToken.status).toBe(403);
    expect(byToken.body.error.data).toMatchObject({ requiredScopes: ['backup:write'] });
    expect((await restore({}, { backupId: taken.backupId, approvalId })).status).toBe(401);
    for (const input of [{ backupId: null, approvalId }, { backupId: 'x' }, {}]) {
      expect((await restore(owner, input)).status).toBe(400);
    }
    expect((await restore(owner, { backupId: NOBODY, approvalId })).status).toBe(404);
    // Still unused after all that: it runs.
    expect(data(await restore(owner, { backupId: taken.backupId, approvalId }))).toMatchObject({
      status: 'succeeded',
    });
  });
});
