import { existsSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli, cliHome } from './support/cli.js';
import { data } from './support/deployments.js';
import { call, memberWithRole } from './support/identity.js';
import { startBackupTestApp, type BackupTestApp } from './support/backups.js';
import type { TestApp } from './support/test-app.js';
import { HOUR, TestClock } from './support/test-clock.js';
import { BackupScheduler } from '../src/runner/backups/backup-scheduler.js';

interface Backup {
  id: string;
  location: string;
  takenAt: string;
  scheduled: boolean;
}

/**
 * Scheduled backups over a real sshd: the test clock moves an hour at a time, the scheduler runs
 * the service's backup command when its schedule comes due, and retention deletes the scheduled
 * backups it no longer keeps (files and records), never a backup taken by hand.
 */
describe('scheduled backups with retention', () => {
  let app: BackupTestApp;
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerToken: string;
  let serviceId: string;
  const clock = new TestClock();

  const backups = async () =>
    data<{ items: Backup[] }>(await call(t.url, 'GET', 'backups', owner, { serviceId, limit: 100 }))
      .items;
  const hourPasses = async () => {
    clock.advance(HOUR);
    await t.app.get(BackupScheduler).pass();
  };

  beforeAll(async () => {
    app = await startBackupTestApp(clock);
    ({ t, owner, serviceId, token: ownerToken } = app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('takes a backup each time the schedule comes due, once, and keeps the newest two', async () => {
    const manual = data<{ backupId: string }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId }),
    ).backupId;
    clock.toMiddleOf(HOUR);
    expect(
      data(
        await call(t.url, 'POST', 'setBackupSchedule', owner, {
          serviceId,
          schedule: '0 * * * *',
          keepLast: 2,
          keepDaily: 0,
          keepWeekly: 0,
        }),
      ),
    ).toEqual({ serviceId, changed: true });

    const taken: Backup[] = [];
    for (let hour = 0; hour < 4; hour++) {
      await hourPasses();
      await t.app.get(BackupScheduler).pass(); // the same time again: taken already
      const scheduled = (await backups()).filter((b) => b.scheduled);
      for (const b of scheduled) if (!taken.some((x) => x.id === b.id)) taken.push(b);
    }
    expect(taken).toHaveLength(4);
    const left = await backups();
    // The two newest scheduled backups, and the one taken by hand.
    expect(left.map((b) => b.id).sort()).toEqual(
      [manual, ...taken.slice(2).map((b) => b.id)].sort(),
    );
    for (const pruned of taken.slice(0, 2)) expect(existsSync(pruned.location)).toBe(false);
    for (const kept of taken.slice(2)) expect(existsSync(kept.location)).toBe(true);

    const trail = data<{ entries: { action: string; actor: { kind: string } }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { action: 'BackupPruned' }),
    ).entries;
    expect(trail).toHaveLength(2);

    const { schedule } = data<{
      schedule: { lastRun: { backupId: string | null }; nextRunAt: string; retention: unknown };
    }>(await call(t.url, 'GET', 'backupSchedule', owner, { serviceId }));
    expect(schedule.lastRun.backupId).toBe(taken[3].id);
    expect(schedule.retention).toEqual({ keepLast: 2, keepDaily: 0, keepWeekly: 0 });
    expect(Date.parse(schedule.nextRunAt)).toBeGreaterThan(clock.now().getTime());
  });

  it('records a failed scheduled backup, and deletes nothing then', async () => {
    data(await call(t.url, 'POST', 'updateService', owner, { serviceId, backupCommand: 'exit 4' }));
    const before = (await backups()).map((b) => b.id).sort();
    await hourPasses();
    expect((await backups()).map((b) => b.id).sort()).toEqual(before);
    const failed = data<{ entries: { action: string }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { action: 'BackupFailed' }),
    ).entries;
    expect(failed).toHaveLength(1);
    const { schedule } = data<{ schedule: { lastRun: { backupId: string | null } } }>(
      await call(t.url, 'GET', 'backupSchedule', owner, { serviceId }),
    );
    expect(schedule.lastRun.backupId).toBeNull();
  });

  it('refuses what a schedule may not be, and who may not set one; removed, it takes no more', async () => {
    const set = (input: Record<string, unknown>, auth = owner) =>
      call(t.url, 'POST', 'setBackupSchedule', auth, { serviceId, schedule: '@daily', ...input });
    expect((await set({ schedule: 'hourly' })).status).toBe(400);
    expect((await set({ keepLast: -1 })).status).toBe(400);
    expect((await set({ timezone: 'Atlantis/City' })).status).toBe(400);
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    expect((await set({}, viewer)).status).toBe(403);

    data(await call(t.url, 'POST', 'removeBackupSchedule', owner, { serviceId }));
    expect(data(await call(t.url, 'GET', 'backupSchedule', owner, { serviceId }))).toEqual({
      schedule: null,
    });
    const before = (await backups()).length;
    await hourPasses();
    expect(await backups()).toHaveLength(before);
  });

  it('is shown, set and stopped with the CLI', async () => {
    const home = cliHome();
    try {
      expect((await cli(home, ['login', '--url', t.url, '--token', ownerToken])).code).toBe(0);
      expect((await cli(home, ['backups', 'schedule', 'db@production'])).stdout).toBe(
        'db@production has no backup schedule\n',
      );
      const set = await cli(home, [
        'backups',
        'schedule',
        'db@production',
        '--cron',
        '30 2 * * *',
        '--timezone',
        'Europe/Paris',
        '--keep-last',
        '3',
        '--keep-weekly',
        '8',
      ]);
      expect([set.code, set.stdout]).toEqual([0, 'Backup schedule of db@production saved\n']);
      const shown = (await cli(home, ['backups', 'schedule', 'db@production'])).stdout;
      expect(shown).toMatch(/schedule\s+30 2 \* \* \* \(Europe\/Paris\)/);
      expect(shown).toMatch(/keeps\s+last 3, daily 7, weekly 8/);
      expect((await cli(home, ['backups', 'unschedule', 'db@production', '--yes'])).code).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
