import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BackupScheduler } from '../src/runner/backups/backup-scheduler.js';
import { cli, cliHome } from './support/cli.js';
import { data } from './support/deployments.js';
import { call } from './support/identity.js';
import { registerLoopbackServer, startSshd, type TestSshd } from './support/sshd.js';
import { startBackupTestApp, type BackupTestApp } from './support/backups.js';
import type { TestApp } from './support/test-app.js';
import { HOUR, TestClock } from './support/test-clock.js';

interface Copy {
  backupId: string;
  serverId: string;
  remotePath: string | null;
  checksum: string | null;
  status: string;
  reason: string | null;
  detail: string | null;
}

const sha256 = (path: string) =>
  `sha256:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;

/**
 * Offsite copies over SFTP to a second real sshd (a registered server): each scheduled backup is
 * written there and read back; a copy changed later is found by reading it again; retention
 * removes a pruned backup's copy too; a backup taken by hand is copied on request.
 */
describe('backup copies to another server over SFTP', () => {
  let backups: BackupTestApp;
  let vault: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let token: string;
  let serviceId: string;
  let vaultId: string;
  let directory: string;
  const clock = new TestClock();

  const copies = async () =>
    data<{ copies: Copy[] }>(await call(t.url, 'GET', 'backupCopies', owner, { serviceId })).copies;
  const hourPasses = async () => {
    clock.advance(HOUR);
    await t.app.get(BackupScheduler).pass();
  };

  beforeAll(async () => {
    backups = await startBackupTestApp(clock, { extraBytes: 100_000 });
    ({ t, owner, serviceId, token } = backups);
    vault = await startSshd();
    directory = `${vault.remoteDir}/offsite`;
    vaultId = await registerLoopbackServer(t.url, owner, vault, 'vault');
    data(
      await call(t.url, 'POST', 'setBackupSchedule', owner, {
        serviceId,
        schedule: '0 * * * *',
        keepLast: 1,
        keepDaily: 0,
        keepWeekly: 0,
        offsite: { serverId: vaultId, directory },
      }),
    );
  });
  afterAll(async () => {
    await backups?.close();
    await vault?.stop();
  });

  it('copies each scheduled backup, verified by reading it back', async () => {
    await hourPasses();
    const [copy] = await copies();
    expect(copy).toMatchObject({ serverId: vaultId, status: 'copied', reason: null });
    expect(copy.remotePath).toBe(`${directory}/${serviceId}/${copy.backupId}.bak`);
    // The bytes on the other server are the backup's.
    expect(sha256(copy.remotePath!)).toBe(copy.checksum);
    const backup = data<{ items: { id: string; checksum: string }[] }>(
      await call(t.url, 'GET', 'backups', owner, { serviceId }),
    ).items.find((b) => b.id === copy.backupId)!;
    expect(copy.checksum).toBe(backup.checksum);
  });

  it('finds a copy that changed on its server', async () => {
    const [copy] = await copies();
    const checked = data<{ checked: number; intact: number }>(
      await call(t.url, 'POST', 'verifyBackupCopies', owner, { serviceId }),
    );
    expect(checked).toMatchObject({ checked: 1, intact: 1 });
    writeFileSync(copy.remotePath!, 'not the backup');
    const found = data<{ checked: number; corrupted: { backupId: string }[] }>(
      await call(t.url, 'POST', 'verifyBackupCopies', owner, { serviceId }),
    );
    expect(found.corrupted).toEqual([{ backupId: copy.backupId, serverId: vaultId }]);
    expect((await copies())[0]).toMatchObject({ status: 'corrupted' });
    expect((await copies())[0].detail).toContain(copy.checksum);
    const trail = data<{ entries: { action: string }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { action: 'BackupCopyCorrupted' }),
    ).entries;
    expect(trail).toHaveLength(1);
  });

  it('removes a pruned backup’s copy with it', async () => {
    const [old] = await copies();
    await hourPasses();
    const now = await copies();
    expect(now.map((c) => c.backupId)).not.toContain(old.backupId);
    expect(existsSync(old.remotePath!)).toBe(false);
    expect(now).toHaveLength(1);
    expect(existsSync(now[0].remotePath!)).toBe(true);
  });

  it('copies a backup taken by hand on request; refuses a directory that climbs out', async () => {
    const { backupId } = data<{ backupId: string }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId }),
    );
    const copied = data<{ remotePath: string }>(
      await call(t.url, 'POST', 'copyBackup', owner, { backupId, serverId: vaultId, directory }),
    );
    expect(existsSync(copied.remotePath)).toBe(true);
    const climbing = await call(t.url, 'POST', 'copyBackup', owner, {
      backupId,
      serverId: vaultId,
      directory: `${directory}/../../etc`,
    });
    expect(climbing.status).toBe(400);
  });

  it('lists and checks copies with the CLI; a changed copy fails the check', async () => {
    const home = cliHome();
    try {
      expect((await cli(home, ['login', '--url', t.url, '--token', token])).code).toBe(0);
      const listed = await cli(home, ['backups', 'copies', 'db@production']);
      expect(listed.stdout.match(/copied/g)).toHaveLength(2);
      const ok = await cli(home, ['backups', 'verify-copies', 'db@production']);
      expect([ok.code, ok.stdout]).toEqual([0, '2 of 2 copies intact\n']);
      const [first] = await copies();
      writeFileSync(first.remotePath!, 'changed');
      const bad = await cli(home, ['backups', 'verify-copies', 'db@production']);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toContain(`corrupted: ${first.backupId}`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
