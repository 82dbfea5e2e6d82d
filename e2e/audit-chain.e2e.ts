import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { AuditWatch } from '../src/audit/audit-watch.js';
import { loadConfig } from '../src/config/app-config.js';
import { allEvents } from './support/audit.js';
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

  it('the periodic verification notices a tail cut off after its checkpoint, once', async () => {
    const sealedTo = await sealedApp();
    tamper((db) => db.prepare('DELETE FROM events WHERE position > ?').run(sealedTo - 2));
    const watch = t.app.get(AuditWatch);
    expect(await watch.verifyNow()).toMatchObject({
      report: { ok: false, problem: 'truncated', firstBadPosition: sealedTo - 1 },
      noticed: true,
    });
    // The record itself took the first cut-off position (SQLite hands out the next rowid): that
    // position now holds another event than the one sealed, a break of its own, recorded once.
    expect(await watch.verifyNow()).toMatchObject({
      report: { ok: false, problem: 'modified', firstBadPosition: sealedTo - 1 },
      noticed: true,
    });
    expect(await watch.verifyNow()).toMatchObject({ noticed: false });
    expect(await watch.verifyNow()).toMatchObject({ noticed: false });
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

describe('the periodic audit verification notifies a break once, signed', () => {
  let t: TestApp;
  let server: Server;
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  afterAll(async () => {
    await t?.close();
    server?.close();
  });

  it('a modified sealed event: one AuditVerificationFailed with position and reason, delivered to a real HTTP server', async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const defaults = loadConfig({});
    t = await startTestApp({
      notes: false,
      config: {
        notifications: {
          ...defaults.notifications,
          tokenScanMinutes: 0,
          addressPolicy: 'allow:loopback',
        },
      },
    });
    const account = await signUp(t.url, 'owner@example.com');
    const owner = cookieAuth(account.cookie);
    const channel = (
      await call(t.url, 'POST', 'createNotificationChannel', owner, {
        name: 'audit',
        kind: 'webhook',
        target: `http://127.0.0.1:${port}/audit`,
        subscriptions: ['audit.verification-failed'],
      })
    ).body.result.data.json as { secret: string };
    for (let i = 0; i < 3; i++) await createToken(t.url, account.cookie, ['deploy:read'], 7);
    expect((await call(t.url, 'POST', 'sealAuditCheckpoint', owner)).status).toBe(200);
    const watch = t.app.get(AuditWatch);
    expect(await watch.verifyNow()).toMatchObject({ report: { ok: true }, noticed: false });

    const db = new Database(join(t.config.dataDir, 'events.sqlite'));
    db.prepare(
      `UPDATE events SET data = json_set(data, '$.name', 'someone else') WHERE position = 3`,
    ).run();
    db.close();
    expect(await watch.verifyNow()).toMatchObject({
      report: { ok: false, problem: 'modified', firstBadPosition: 3 },
      noticed: true,
    });
    // Found again by later passes (the window starts over), recorded once.
    await watch.verifyNow();
    await watch.verifyNow();
    const failures = (await allEvents(t)).filter((e) => e.type === 'AuditVerificationFailed');
    expect(failures).toHaveLength(1);
    expect(failures[0].data).toMatchObject({
      problem: 'modified',
      firstBadPosition: 3,
      reason: 'event 3 differs from what was sealed',
    });

    for (let i = 0; i < 400 && received.length === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(received).toHaveLength(1);
    const [message] = received;
    const ts = String(message.headers['x-slipway-timestamp']);
    const expected = createHmac('sha256', channel.secret).update(`${ts}.${message.body}`);
    expect(message.headers['x-slipway-signature']).toBe(`sha256=${expected.digest('hex')}`);
    expect(JSON.parse(message.body)).toMatchObject({
      subject: 'audit.verification-failed',
      event: { type: 'AuditVerificationFailed' },
      data: {
        problem: 'modified',
        firstBadPosition: 3,
        reason: 'event 3 differs from what was sealed',
      },
    });
  });
});

describe('with SLIPWAY_AUDIT_VERIFY_SECONDS set, the API process verifies by itself', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('a deleted sealed event is recorded without anyone asking', async () => {
    const defaults = loadConfig({});
    t = await startTestApp({
      notes: false,
      config: {
        audit: { ...defaults.audit, sealEveryEvents: 0, sealSeconds: 0, verifySeconds: 1 },
      },
    });
    const account = await signUp(t.url, 'owner@example.com');
    const owner = cookieAuth(account.cookie);
    for (let i = 0; i < 3; i++) await createToken(t.url, account.cookie, ['deploy:read'], 7);
    expect((await call(t.url, 'POST', 'sealAuditCheckpoint', owner)).status).toBe(200);
    const db = new Database(join(t.config.dataDir, 'events.sqlite'));
    db.prepare('DELETE FROM events WHERE position = 4').run();
    db.close();
    let failures: Awaited<ReturnType<typeof allEvents>> = [];
    for (let i = 0; i < 200 && failures.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      failures = (await allEvents(t)).filter((e) => e.type === 'AuditVerificationFailed');
    }
    expect(failures.map((e) => e.data)).toEqual([
      expect.objectContaining({ problem: 'deleted', firstBadPosition: 4 }),
    ]);
  });
});
