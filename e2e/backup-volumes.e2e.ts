import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  PASSWORD,
  signUp,
} from './support/identity.js';
import { cli, cliHome } from './support/cli.js';
import { ALL_SCOPES } from '../src/kernel/scopes.js';
import {
  ALLOW_LOOPBACK,
  deployAndWait,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { HOUR, TestClock } from './support/test-clock.js';
import { BackupScheduler } from '../src/runner/backups/backup-scheduler.js';

const PROJECT = 'vault-production';

interface Backup {
  id: string;
  location: string;
  volume: string | null;
  scheduled: boolean;
  lastRestoreTest: { passed: boolean; exitCode: number | null; detail: string | null } | null;
}

/**
 * Backups of a compose file's named volume on a real Docker engine over a real sshd: a tar of
 * the volume taken through a helper container, restored (two people) into the live volume, and
 * test-restored into a scratch container, by hand and on schedule.
 */
describe('named-volume backups, restores and restore tests on a real Docker engine', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let backupOnly: Record<string, string>;
  let admin: Record<string, string>;
  let serviceId: string;
  const clock = new TestClock();

  const container = `${PROJECT}-web-1`;
  const read = () => engine.docker(['exec', container, 'cat', '/data/greeting']).trim();
  const write = (text: string) =>
    engine.docker(['exec', container, 'sh', '-c', `echo ${text} > /data/greeting`]);
  const backups = async () =>
    data<{ items: Backup[] }>(await call(t.url, 'GET', 'backups', owner, { serviceId, limit: 50 }))
      .items;
  const backupOf = async (backupId: string) => (await backups()).find((b) => b.id === backupId)!;

  beforeAll(async () => {
    engine = dockerEngine();
    sshd = await startSshd({ engine });
    const image = `${engine.registry}/acme/api:1.0.0`;
    t = await startTestApp({
      notes: false,
      clock,
      config: { serverAddressPolicy: ALLOW_LOOPBACK, volumeHelperImage: image },
    });
    await startRunnerFor(t, sshd);
    const cookie = (await signUp(t.url, 'owner@example.com')).cookie;
    admin = await memberWithRole(t.url, cookieAuth(cookie), 'admin@example.com', 'admin');
    // A token: the test clock moves hours, past any session's idle limit.
    owner = bearer((await createToken(t.url, cookie, [...ALL_SCOPES], 30)).token);
    backupOnly = bearer(
      (await createToken(t.url, cookie, ['service:read', 'backup:write'], 30)).token,
    );
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'vault',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: [
          'services:',
          '  web:',
          `    image: ${image}`,
          '    volumes: ["data:/data"]',
          'volumes:',
          '  data: {}',
          '',
        ].join('\n'),
      }),
    ).serviceId;
    const done = await deployAndWait<{ status: string }>(t, owner, serviceId, image);
    expect(done.status).toBe('succeeded');
    write('hello');
  }, 5 * 60_000);

  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    engine?.removeProject(PROJECT);
    engine?.docker(['volume', 'rm', '-f', `${PROJECT}_data`]);
  });

  it('tars a named volume, and restores it with two people, its containers stopped meanwhile', async () => {
    const taken = data<{ backupId: string; location: string; volume: string }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId, volume: 'data' }),
    );
    expect(taken.volume).toBe('data');
    expect(execFileSync('tar', ['-tf', taken.location], { encoding: 'utf8' })).toMatch(/greeting/);
    expect((await backupOf(taken.backupId)).volume).toBe('data');

    write('changed');
    expect(read()).toBe('changed');
    const plan = data<{ steps: string[] }>(
      await call(t.url, 'GET', 'backupRestorePlan', owner, { backupId: taken.backupId }),
    );
    expect(plan.steps.join('\n')).toMatch(/volume data/);
    const { approvalId } = data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', admin, {
        action: 'restore',
        serviceId,
        backupId: taken.backupId,
        reason: 'put the volume back',
      }),
    );
    data(await call(t.url, 'POST', 'approveRequest', owner, { approvalId }));
    const restored = data<{ status: string }>(
      await call(t.url, 'POST', 'restoreBackup', admin, { backupId: taken.backupId, approvalId }),
    );
    expect(restored.status).toBe('succeeded');
    expect(engine.docker(['inspect', '--format', '{{.State.Status}}', container]).trim()).toBe(
      'running',
    );
    expect(read()).toBe('hello');

    const unknown = await call(t.url, 'POST', 'triggerBackup', owner, {
      serviceId,
      volume: 'nope',
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/one of: data/);
    const bad = await call(t.url, 'POST', 'triggerBackup', owner, { serviceId, volume: '../x' });
    expect(bad.status).toBe(400);
  });

  it('test-restores a backup into a scratch container and records the outcome', async () => {
    const { backupId, location } = data<{ backupId: string; location: string }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId, volume: 'data' }),
    );
    const passed = data<{ passed: boolean }>(
      await call(t.url, 'POST', 'testBackupRestore', owner, { backupId }),
    );
    expect(passed.passed).toBe(true);
    expect((await backupOf(backupId)).lastRestoreTest).toMatchObject({ passed: true });

    // A test of the caller's own: the file must say hello.
    const own = data<{ passed: boolean }>(
      await call(t.url, 'POST', 'testBackupRestore', owner, {
        backupId,
        image: `${engine.registry}/acme/api:1.0.0`,
        command: ['sh', '-c', 'tar -C /restore -xf - && [ "$(cat /restore/greeting)" = hello ]'],
      }),
    );
    expect(own.passed).toBe(true);
    const failing = data<{ passed: boolean; reason: string; exitCode: number }>(
      await call(t.url, 'POST', 'testBackupRestore', owner, {
        backupId,
        image: `${engine.registry}/acme/api:1.0.0`,
        command: ['sh', '-c', 'cat > /dev/null; echo not what we expected >&2; exit 4'],
      }),
    );
    expect(failing).toMatchObject({ passed: false, reason: 'command-failed', exitCode: 4 });
    expect((await backupOf(backupId)).lastRestoreTest).toMatchObject({
      passed: false,
      exitCode: 4,
      detail: 'command-failed: exit 4',
    });
    // What the test printed is not kept: a test is no way to read a backup.
    const trail = JSON.stringify(
      await call(t.url, 'GET', 'auditTrail', owner, { action: 'BackupRestoreTestFailed' }),
    );
    expect(trail).not.toMatch(/not what we expected/);
    // The scratch containers are gone, and never touched the service's volume.
    expect(engine.docker(['ps', '-aq', '--filter', 'name=slipway-restore-test-']).trim()).toBe('');
    expect(read()).toBe('hello');

    // An artifact changed on disk is refused before anything is sent.
    writeFileSync(location, 'not a tar');
    const corrupt = data<{ passed: boolean; reason: string }>(
      await call(t.url, 'POST', 'testBackupRestore', owner, { backupId }),
    );
    expect(corrupt).toMatchObject({ passed: false, reason: 'checksum-mismatch' });

    const half = await call(t.url, 'POST', 'testBackupRestore', owner, {
      backupId,
      image: 'busybox',
    });
    expect(half.status).toBe(400);
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    expect((await call(t.url, 'POST', 'testBackupRestore', viewer, { backupId })).status).toBe(403);

    // A command of one's own answers about the data through its exit code, as deployed code
    // could: choosing one takes deploy:start as well; the schedule's own test does not.
    const chosen = await call(t.url, 'POST', 'testBackupRestore', backupOnly, {
      backupId,
      image: `${engine.registry}/acme/api:1.0.0`,
      command: ['sh', '-c', 'exit 0'],
    });
    expect([chosen.status, chosen.body.error.data.missingScopes]).toEqual([403, ['deploy:start']]);
    const scheduled = await call(t.url, 'POST', 'setBackupSchedule', backupOnly, {
      serviceId,
      schedule: '@daily',
      volumes: ['data'],
      restoreTest: { image: `${engine.registry}/acme/api:1.0.0`, command: ['sh', '-c', 'exit 0'] },
    });
    expect([scheduled.status, scheduled.body.error.data.missingScopes]).toEqual([
      403,
      ['deploy:start'],
    ]);
    const schedules = await call(t.url, 'POST', 'testBackupRestore', backupOnly, { backupId });
    expect(schedules.status).toBe(200);
  });

  it('backs up the volume on schedule, test-restores each backup, and keeps the newest', async () => {
    const set = (input: Record<string, unknown>) =>
      call(t.url, 'POST', 'setBackupSchedule', owner, {
        serviceId,
        schedule: '@hourly',
        keepLast: 1,
        keepDaily: 0,
        keepWeekly: 0,
        ...input,
      });
    // The service has no backup command: only volumes, and a command test needs an image.
    expect((await set({ command: true, volumes: ['data'] })).status).toBe(409);
    expect((await set({})).status).toBe(400);
    expect((await set({ volumes: ['other'] })).status).toBe(400);
    expect((await set({ volumes: ['data'], restoreTest: { command: ['true'] } })).status).toBe(400);
    data(await set({ volumes: ['data'], restoreTest: {} }));
    const scheduler = t.app.get(BackupScheduler);
    const taken: string[] = [];
    for (let i = 0; i < 2; i++) {
      clock.advance(HOUR);
      await scheduler.pass();
      const latest = (await backups()).filter((b) => b.scheduled);
      taken.push(...latest.map((b) => b.id).filter((id) => !taken.includes(id)));
    }
    const kept = (await backups()).filter((b) => b.scheduled);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      volume: 'data',
      lastRestoreTest: { passed: true },
      id: taken.at(-1),
    });
    const trail = data<{ entries: { action: string; actor: { kind: string } }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { action: 'BackupRestoreTestPassed' }),
    ).entries;
    expect(trail.length).toBeGreaterThanOrEqual(3);
  });
  it('is taken, scheduled and tested with the CLI', async () => {
    const home = cliHome();
    try {
      const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--password-stdin'];
      expect((await cli(home, login, {}, `${PASSWORD}\n`)).code).toBe(0);
      const taken = await cli(home, [
        'backups',
        'trigger',
        'vault@production',
        '--volume',
        'data',
        '--yes',
      ]);
      expect(taken.code).toBe(0);
      const backupId = /backup\s+│?\s*([0-9a-f-]{36})/.exec(taken.stdout)![1]!;
      const tested = await cli(home, ['backups', 'test-restore', backupId]);
      expect(tested.stdout).toMatch(/passed/);
      const failing = await cli(home, [
        'backups',
        'test-restore',
        backupId,
        '--image',
        `${engine.registry}/acme/api:1.0.0`,
        '--',
        'false',
      ]);
      expect(failing.code).toBe(1);
      expect(failing.stdout).toMatch(/failed: command-failed/);
      const scheduled = await cli(home, [
        'backups',
        'schedule',
        'vault@production',
        '--cron',
        '@daily',
        '--volume',
        'data',
        '--restore-test',
      ]);
      expect(scheduled.code).toBe(0);
      const shown = data<{
        schedule: { volumes: string[]; restoreTest: unknown; command: boolean };
      }>(await call(t.url, 'GET', 'backupSchedule', owner, { serviceId })).schedule;
      expect(shown).toMatchObject({
        volumes: ['data'],
        command: false,
        restoreTest: { image: null },
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
