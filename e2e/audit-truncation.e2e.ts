import { randomUUID } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { AuditWatch } from '../src/audit/audit-watch.js';
import { allEvents, downloadExport } from './support/audit.js';
import { cli, cliHome } from './support/cli.js';
import { call, cookieAuth, createToken, logIn, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Sealed {
  sequence: number;
  toPosition: number;
  digest: string;
}

/**
 * Whoever can edit the event store (not the app host's files) cuts the trail back to an earlier
 * checkpoint, with the links recorded for the tail, and writes a history of their own after it.
 * The mark kept beside the signing key is what still knows the last checkpoint signed.
 */
describe('a trail cut back after a checkpoint, on SQLite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-cut-'));
  const home = cliHome();
  let t: TestApp;
  let owner: Record<string, string>;
  let first: Sealed;
  let second: Sealed;
  let firstAt: number;
  const start = async () => {
    t = await startTestApp({ notes: false, config: { dataDir } });
    owner = cookieAuth(await logIn(t.url, 'owner@example.com'));
  };
  const verify = async (input: Record<string, unknown> = {}) =>
    (await call(t.url, 'GET', 'verifyAuditTrail', owner, input)).body.result.data.json;
  const seal = () => call(t.url, 'POST', 'sealAuditCheckpoint', owner);
  const sqlite = (file: string, work: (db: Database.Database) => void) => {
    const db = new Database(join(dataDir, file));
    db.transaction(() => work(db))();
    db.close();
  };

  beforeAll(async () => {
    t = await startTestApp({ notes: false, config: { dataDir } });
    const account = await signUp(t.url, 'owner@example.com');
    owner = cookieAuth(account.cookie);
    for (let i = 0; i < 3; i++) await createToken(t.url, account.cookie, ['deploy:read'], 7);
    first = (await seal()).body.result.data.json;
    const leaver = await signUp(t.url, 'leaver@example.com');
    await call(t.url, 'POST', 'deactivateUser', owner, { userId: leaver.userId });
    await call(t.url, 'POST', 'createAgent', owner, { name: 'bot' });
    second = (await seal()).body.result.data.json;
    const checkpoints = (await allEvents(t)).filter((e) => e.type === 'AuditCheckpointSealed');
    firstAt = Number(checkpoints[0].position);
    const report = await verify();
    expect(report).toMatchObject({
      ok: true,
      checkpointsVerified: 2,
      lastCheckpoint: { sequence: 2, digest: second.digest },
    });
    writeFileSync(join(home, 'audit.pem'), report.publicKey as string);

    // The cut: everything after checkpoint 1 (checkpoint 2 and the deactivation with it), the
    // links recorded for it, and a forged event where the cut began.
    sqlite('events.sqlite', (db) => {
      db.prepare('DELETE FROM events WHERE position > ?').run(firstAt);
      const template = db
        .prepare("SELECT * FROM events WHERE type = 'TokenMinted' LIMIT 1")
        .get() as Record<string, unknown>;
      db.prepare(
        `INSERT INTO events (position, id, stream, revision, type, schema_version, recorded_at, data, metadata)
         VALUES (?, ?, 'project-forged', 0, 'ProjectCreated', 1, ?, ?, ?)`,
      ).run(
        firstAt + 1,
        randomUUID(),
        new Date().toISOString(),
        JSON.stringify({ projectId: 'forged', name: 'Forged' }),
        template.metadata,
      );
    });
    sqlite('primary.sqlite', (db) =>
      db
        .prepare("DELETE FROM rm_audit_chain WHERE json_extract(doc, '$.position') > ?")
        .run(first.toPosition),
    );
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('verification says the store ends before the checkpoint signed last, and sealing over it is refused', async () => {
    expect(await verify()).toMatchObject({
      ok: false,
      problem: 'truncated',
      firstBadPosition: firstAt + 1,
      message: expect.stringMatching(/^the event store ends before checkpoint 2 signed at /),
    });
    const refused = await seal();
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/does not hold what was signed/);
    const events = await allEvents(t);
    expect(events.filter((e) => e.type === 'AuditCheckpointSealed')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'AuditVerificationFailed').map((e) => e.data)).toEqual([
      expect.objectContaining({ problem: 'truncated', firstBadPosition: firstAt + 1 }),
    ]);
  });

  it('a restart (with the read models rebuilt from the cut store) does not clear the alarm', async () => {
    await t.close();
    for (const suffix of ['', '-wal', '-shm']) {
      rmSync(join(dataDir, `read-models.sqlite${suffix}`), { force: true });
    }
    await start();
    expect(await verify()).toMatchObject({ ok: false, problem: 'truncated' });
    expect((await seal()).status).toBe(409);
    const checkpoints = (await allEvents(t)).filter((e) => e.type === 'AuditCheckpointSealed');
    expect(checkpoints).toHaveLength(1);
  });

  it('an export of the cut store verifies on its own, and fails against the last real checkpoint kept outside', async () => {
    const file = join(home, 'cut.ndjson');
    await downloadExport(t.url, owner, file);
    const args = ['audit', 'verify-export', file, '--public-key', join(home, 'audit.pem')];
    // The file alone cannot tell: its chain, signatures and entries hold.
    expect((await cli(home, [...args, '--json'])).json.data).toMatchObject({
      ok: true,
      lastCheckpoint: { sequence: 1 },
    });
    const expected = await cli(home, [...args, '--expect', `2:${second.digest}`, '--json']);
    expect(expected.code).toBe(1);
    expect(expected.json.error?.data.report).toMatchObject({
      ok: false,
      problem: 'truncated',
      firstBadPosition: firstAt + 1,
      message: 'the export ends before checkpoint 2 expected (its last checkpoint is 1)',
    });
    const bad = await cli(home, [...args, '--expect', '2:abc', '--json']);
    expect(bad.json.error?.code).toBe('BAD_REQUEST');
  });

  it('with the mark gone, a checkpoint kept outside Slipway (expectCheckpoint) still catches it', async () => {
    await t.close();
    renameSync(join(dataDir, 'audit-mark.json'), join(dataDir, 'audit-mark.json.moved'));
    await start();
    expect(await verify()).toMatchObject({ ok: true });
    expect(await verify({ expectCheckpoint: `2:${second.digest}` })).toMatchObject({
      ok: false,
      problem: 'truncated',
      message: 'the event store ends before checkpoint 2 expected (its last checkpoint is 1)',
    });
    expect(await verify({ expectCheckpoint: `1:${first.digest}` })).toMatchObject({ ok: true });
    const invalid = await call(t.url, 'GET', 'verifyAuditTrail', owner, {
      expectCheckpoint: '2:not-a-digest',
    });
    expect(invalid.status).toBe(400);
  });
});

describe('the periodic verification notices the head going back', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('events removed from the end after the last checkpoint: reported as truncated, not passed over', async () => {
    t = await startTestApp({ notes: false });
    const account = await signUp(t.url, 'owner@example.com');
    const owner = cookieAuth(account.cookie);
    await createToken(t.url, account.cookie, ['deploy:read'], 7);
    await call(t.url, 'POST', 'sealAuditCheckpoint', owner);
    for (let i = 0; i < 3; i++) await call(t.url, 'POST', 'createAgent', owner, { name: `b${i}` });
    const watch = t.app.get(AuditWatch);
    expect(await watch.verifyNow()).toMatchObject({ report: { ok: true } });
    const head = (await allEvents(t)).length;
    const db = new Database(join(t.config.dataDir, 'events.sqlite'));
    db.prepare('DELETE FROM events WHERE position > ?').run(head - 2);
    db.close();
    expect(await watch.verifyNow()).toMatchObject({
      report: {
        ok: false,
        problem: 'truncated',
        firstBadPosition: head - 1,
        message: `the event store's head went back from ${head} to ${head - 2}: events were removed from its end`,
      },
      noticed: true,
    });
  });
});
