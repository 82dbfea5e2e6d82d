import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { call, cookieAuth, createToken, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Report {
  ok: boolean;
  eventsVerified: number;
  checkpointsVerified: number;
  firstBadPosition: number | null;
  problem: string | null;
  message: string;
}

describe('audit hash chain: sealed checkpoints and tamper detection on the SQLite files', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  afterEach(async () => t?.close());

  /** Some activity, then a signed checkpoint over all of it. */
  async function sealedApp(): Promise<number> {
    t = await startTestApp({ notes: false });
    const account = await signUp(t.url, 'owner@example.com');
    owner = cookieAuth(account.cookie);
    for (let i = 0; i < 3; i++) await createToken(t.url, account.cookie, ['deploy:read'], 7);
    await call(t.url, 'POST', 'createAgent', owner, { name: 'bot' });
    const sealed = await call(t.url, 'POST', 'sealAuditCheckpoint', owner);
    expect(sealed.status).toBe(200);
    return sealed.body.result.data.json.toPosition as number;
  }
  const verify = async (): Promise<Report> =>
    (await call(t.url, 'GET', 'verifyAuditTrail', owner)).body.result.data.json;
  const tamper = (sql: (db: Database.Database) => void) => {
    const db = new Database(join(t.config.dataDir, 'events.sqlite'));
    db.transaction(() => sql(db))();
    db.close();
  };

  it('verifies an untouched store, and again after more events and a second checkpoint', async () => {
    const sealedTo = await sealedApp();
    const first = await verify();
    expect(first).toMatchObject({
      ok: true,
      checkpointsVerified: 1,
      message: `${first.eventsVerified} events, 1 checkpoints verified`,
    });
    expect(first.eventsVerified).toBeGreaterThanOrEqual(sealedTo);
    await call(t.url, 'POST', 'createAgent', owner, { name: 'bot-2' });
    await call(t.url, 'POST', 'sealAuditCheckpoint', owner);
    expect(await verify()).toMatchObject({ ok: true, checkpointsVerified: 2 });
  });

  it('names the event whose data was modified', async () => {
    await sealedApp();
    tamper((db) =>
      db
        .prepare(
          `UPDATE events SET data = json_set(data, '$.name', 'someone else') WHERE position = 3`,
        )
        .run(),
    );
    expect(await verify()).toMatchObject({ ok: false, problem: 'modified', firstBadPosition: 3 });
  });

  it('names the first deleted event', async () => {
    await sealedApp();
    tamper((db) => db.prepare('DELETE FROM events WHERE position = 4').run());
    expect(await verify()).toMatchObject({ ok: false, problem: 'deleted', firstBadPosition: 4 });
  });

  it('names the first of two swapped events', async () => {
    await sealedApp();
    tamper((db) => {
      const cols = 'id, stream, revision, type, schema_version, recorded_at, data, metadata';
      const a = db.prepare(`SELECT ${cols} FROM events WHERE position = 5`).get() as Record<
        string,
        unknown
      >;
      const b = db.prepare(`SELECT ${cols} FROM events WHERE position = 6`).get() as Record<
        string,
        unknown
      >;
      const set = db.prepare(
        'UPDATE events SET id = ?, stream = ?, revision = ?, type = ?, schema_version = ?, recorded_at = ?, data = ?, metadata = ? WHERE position = ?',
      );
      db.prepare("UPDATE events SET id = 'tmp-a', revision = -1 WHERE position = 5").run();
      db.prepare("UPDATE events SET id = 'tmp-b', revision = -2 WHERE position = 6").run();
      set.run(...Object.values(b), 5);
      set.run(...Object.values(a), 6);
    });
    expect(await verify()).toMatchObject({ ok: false, problem: 'modified', firstBadPosition: 5 });
  });

  it('notices a tail cut off after a checkpoint, checkpoint included', async () => {
    const sealedTo = await sealedApp();
    tamper((db) => db.prepare('DELETE FROM events WHERE position > ?').run(sealedTo - 2));
    expect(await verify()).toMatchObject({
      ok: false,
      problem: 'truncated',
      firstBadPosition: sealedTo - 1,
    });
  });

  it('refuses a checkpoint whose signature does not match', async () => {
    await sealedApp();
    tamper((db) =>
      db
        .prepare(
          `UPDATE events SET data = json_set(data, '$.signature', 'AAAA') WHERE type = 'AuditCheckpointSealed'`,
        )
        .run(),
    );
    expect(await verify()).toMatchObject({ ok: false, problem: 'bad-signature' });
  });
});
