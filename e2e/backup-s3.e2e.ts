import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { BackupScheduler } from '../src/runner/backups/backup-scheduler.js';
import { cli, cliHome } from './support/cli.js';
import { data } from './support/deployments.js';
import { call, memberWithRole } from './support/identity.js';
import { startS3, type TestS3 } from './support/s3.js';
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
}

/**
 * Copies to S3-compatible storage (the npm package `s3rver` on loopback, which checks request
 * signatures): each scheduled backup is put in the bucket and read back; the secret is never
 * shown; an object changed in the bucket is found; wrong credentials fail the copy, recorded.
 */
describe('backup copies to S3-compatible storage', () => {
  let s3: TestS3;
  let app: BackupTestApp;
  let t: TestApp;
  let owner: Record<string, string>;
  let token: string;
  let serviceId: string;
  let direct: S3Client;
  const clock = new TestClock();

  const copies = async () =>
    data<{ copies: Copy[] }>(await call(t.url, 'GET', 'backupCopies', owner, { serviceId })).copies;
  const keyOf = (path: string) => path.slice(`s3://${s3.bucket}/`.length);
  const object = async (path: string) => {
    const answer: GetObjectCommandOutput = await direct.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: keyOf(path) }),
    );
    return Buffer.from(await answer.Body!.transformToByteArray());
  };

  beforeAll(async () => {
    s3 = await startS3();
    direct = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    app = await startBackupTestApp(clock, { extraBytes: 50_000, loopbackTargets: true });
    ({ t, owner, serviceId, token } = app);
  });
  afterAll(async () => {
    direct?.destroy();
    await app?.close();
    await s3?.stop();
  });

  it('configures a target whose secret is never shown, and copies each scheduled backup there', async () => {
    expect(
      data(
        await call(t.url, 'POST', 'configureS3Target', owner, {
          targetId: 'archive',
          displayName: 'Archive',
          endpoint: s3.endpoint,
          region: 'us-east-1',
          bucket: s3.bucket,
          prefix: 'slipway/',
          accessKeyId: s3.accessKeyId,
          secretAccessKey: s3.secretAccessKey,
        }),
      ),
    ).toEqual({ targetId: 'archive', changed: true });
    const listed = await call(t.url, 'GET', 's3Targets', owner);
    // (s3rver's secret is its key id: what must not appear is any secret or sealed field.)
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toMatch(/secret|sealed/i);
    data(
      await call(t.url, 'POST', 'setBackupSchedule', owner, {
        serviceId,
        schedule: '0 * * * *',
        offsite: { s3TargetId: 'archive' },
      }),
    );
    clock.advance(HOUR);
    await t.app.get(BackupScheduler).pass();
    const [copy] = await copies();
    expect(copy).toMatchObject({ serverId: 's3:archive', status: 'copied', reason: null });
    expect(copy.remotePath).toBe(`s3://${s3.bucket}/slipway/${serviceId}/${copy.backupId}.bak`);
    const bytes = await object(copy.remotePath!);
    expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(copy.checksum);
  });

  it('names the targets, by id and name only, to an operator who sets schedules', async () => {
    const operator = await memberWithRole(t.url, owner, 'ops@example.com', 'operator');
    const viewer = await memberWithRole(t.url, owner, 'watcher@example.com', 'viewer');
    const named = await call(t.url, 'GET', 's3TargetNames', operator);
    expect(data(named)).toEqual({ targets: [{ targetId: 'archive', displayName: 'Archive' }] });
    expect(JSON.stringify(named.body)).not.toContain(s3.bucket);
    // The whole target (endpoint, bucket, key id) stays with owners and admins.
    expect((await call(t.url, 'GET', 's3Targets', operator)).status).toBe(403);
    expect((await call(t.url, 'GET', 's3TargetNames', viewer)).status).toBe(403);
    expect((await call(t.url, 'GET', 's3TargetNames', {})).status).toBe(401);
  });

  it('finds an object that changed in the bucket', async () => {
    const [copy] = await copies();
    await direct.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: keyOf(copy.remotePath!), Body: 'tampered' }),
    );
    const found = data<{ corrupted: { backupId: string; serverId: string }[] }>(
      await call(t.url, 'POST', 'verifyBackupCopies', owner, { serviceId }),
    );
    expect(found.corrupted).toEqual([{ backupId: copy.backupId, serverId: 's3:archive' }]);
  });

  it('records a copy refused for wrong credentials, and refuses bad targets', async () => {
    data(
      await call(t.url, 'POST', 'configureS3Target', owner, {
        targetId: 'wrong-key',
        displayName: 'Wrong key',
        endpoint: s3.endpoint,
        region: 'us-east-1',
        bucket: s3.bucket,
        accessKeyId: 'NOT-THE-KEY',
        secretAccessKey: 'nope',
      }),
    );
    const { backupId } = data<{ backupId: string }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId }),
    );
    const refused = await call(t.url, 'POST', 'copyBackup', owner, {
      backupId,
      s3TargetId: 'wrong-key',
    });
    expect(refused.status).toBe(409);
    const failed = (await copies()).find((c) => c.backupId === backupId)!;
    expect(failed).toMatchObject({
      serverId: 's3:wrong-key',
      status: 'failed',
      reason: 'transfer-failed',
    });
    // Below admin, a copy names neither the bucket nor the store's own error text.
    const operator = await memberWithRole(t.url, owner, 'copier@example.com', 'operator');
    const seen = data<{ copies: Copy[] }>(
      await call(t.url, 'GET', 'backupCopies', operator, { serviceId }),
    ).copies;
    expect(JSON.stringify(seen)).not.toContain(s3.bucket);
    expect(seen.find((c) => c.backupId === backupId)).toMatchObject({
      detail: 'the copy did not complete',
    });
    const paths = seen.flatMap((c) => (c.remotePath ? [c.remotePath] : []));
    for (const path of paths) expect(path).toMatch(/^s3:\/\/…\/slipway\//);
    const again = await call(t.url, 'POST', 'copyBackup', operator, {
      backupId,
      s3TargetId: 'wrong-key',
    });
    expect([again.status, again.body.error.message]).toEqual([
      409,
      'The copy failed (transfer-failed): the copy did not complete',
    ]);
    const bad = (input: Record<string, unknown>) =>
      call(t.url, 'POST', 'configureS3Target', owner, {
        targetId: 'bad',
        displayName: 'Bad',
        region: 'us-east-1',
        bucket: 'backups',
        accessKeyId: 'k',
        secretAccessKey: 's',
        ...input,
      });
    expect((await bad({ endpoint: 'http://s3.example.com' })).status).toBe(400);
    expect((await bad({ endpoint: 'https://10.0.0.5' })).status).toBe(400);
    expect((await bad({ bucket: 'No_Such Bucket' })).status).toBe(400);
    const both = await call(t.url, 'POST', 'copyBackup', owner, {
      backupId,
      s3TargetId: 'archive',
      directory: '/srv',
    });
    expect(both.status).toBe(400);
  });

  it('sets a target and copies to it with the CLI, the secret read from standard input', async () => {
    const home = cliHome();
    try {
      expect((await cli(home, ['login', '--url', t.url, '--token', token])).code).toBe(0);
      const set = await cli(
        home,
        [
          'backups',
          's3',
          'set',
          'from-cli',
          '--bucket',
          s3.bucket,
          '--region',
          'us-east-1',
          '--access-key-id',
          s3.accessKeyId,
          '--endpoint',
          s3.endpoint,
          '--secret-stdin',
        ],
        {},
        `${s3.secretAccessKey}\n`,
      );
      expect([set.code, set.stdout]).toEqual([0, 'S3 target from-cli saved\n']);
      const list = await cli(home, ['backups', 's3', 'list', '--json']);
      const targets = (list.json.data as { targets: { targetId: string; bucket: string }[] })
        .targets;
      expect(targets.find((x) => x.targetId === 'from-cli')).toMatchObject({ bucket: s3.bucket });
      expect(list.stdout).not.toMatch(/secret/i);
      const names = await cli(home, ['backups', 's3', 'list', '--names']);
      expect(names.code).toBe(0);
      expect(names.stdout).toMatch(/from-cli/);
      expect(names.stdout).not.toContain(s3.bucket);
      const { backupId } = data<{ backupId: string }>(
        await call(t.url, 'POST', 'triggerBackup', owner, { serviceId }),
      );
      const copied = await cli(home, ['backups', 'copy', backupId, '--s3', 'from-cli']);
      expect(copied.stdout).toBe(`Copied to s3://${s3.bucket}/${serviceId}/${backupId}.bak\n`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
