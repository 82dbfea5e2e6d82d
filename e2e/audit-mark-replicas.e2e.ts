import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { postgresClusterForSuite } from '../src/common/testing/postgres-cluster-suite.js';
import { loadConfig } from '../src/config/app-config.js';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { testEvent } from '../src/eventstore/testing/test-events.js';
import { call, cookieAuth, logIn, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const cluster = postgresClusterForSuite();

/**
 * Two API replicas on one PostgreSQL database, each with a data directory (and so a mark) of its
 * own and the same keys, as on two hosts. Each seals when asked; their sealing passes run (at a
 * threshold never reached here) so that each follows the other's checkpoints.
 */
describe('the audit mark with two replicas on PostgreSQL', () => {
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'slipway-mark-replica-')));
  const replicas: TestApp[] = [];
  const auth: Record<string, string>[] = [];
  let url: string;
  const defaults = loadConfig({});
  const start = (dataDir: string) =>
    startTestApp({
      notes: false,
      config: {
        dataDir,
        storage: { postgresUrl: url, eventStoreUrl: null, mongoUrl: null, replicas: 2 },
        audit: { ...defaults.audit, sealEveryEvents: 1_000_000, sealSeconds: 0, verifySeconds: 0 },
      },
    });
  const seal = (i: number) => call(replicas[i].url, 'POST', 'sealAuditCheckpoint', auth[i]);
  const verify = async (i: number) =>
    (await call(replicas[i].url, 'GET', 'verifyAuditTrail', auth[i])).body.result.data.json;
  const activity = (i: number, name: string) =>
    call(replicas[i].url, 'POST', 'createAgent', auth[i], { name });
  const markOf = (i: number): number =>
    (JSON.parse(readFileSync(join(dirs[i], 'audit-mark.json'), 'utf8')) as { sequence: number })
      .sequence;
  /** Until both marks reach `sequence` (their passes read the checkpoints every 2 s). */
  const bothMarked = async (sequence: number) => {
    for (let i = 0; i < 100 && !(markOf(0) >= sequence && markOf(1) >= sequence); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([markOf(0), markOf(1)]).toEqual([sequence, sequence]);
  };
  const sql = async (text: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as Record<string, string>[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    url = await cluster().createDatabase();
    replicas.push(await start(dirs[0]));
    auth.push(cookieAuth((await signUp(replicas[0].url, 'owner@example.com')).cookie));
    // The same keys on the other host; the marks stay each its own.
    for (const file of ['secret.key', 'audit-signing.key']) {
      copyFileSync(join(dirs[0], file), join(dirs[1], file));
    }
    replicas.push(await start(dirs[1]));
    auth.push(cookieAuth(await logIn(replicas[1].url, 'owner@example.com')));
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("seals in turn and at once: each follows the other's checkpoints, and no seal is refused for the mark", async () => {
    for (const [i, name] of [
      [0, 'a'],
      [1, 'b'],
      [0, 'c'],
    ] as const) {
      await activity(i, name);
      expect((await seal(i)).status).toBe(200);
    }
    // Enough unsealed events that both seals are under way at once (one loses the stream's
    // revision to the other, or finds nothing left to seal).
    const noise = Array.from({ length: 2000 }, (_, i) => testEvent('Noise', { i }));
    await replicas[1].app.get<EventStore>(EVENT_STORE).append('noise', noise, 'any');
    const both = await Promise.all([seal(0), seal(1)]);
    for (const answer of both) {
      // One of them may lose the race (CONFLICT on the stream's revision), never to the mark.
      expect([200, 409]).toContain(answer.status);
      expect(JSON.stringify(answer.body)).not.toMatch(/does not hold what was signed/);
    }
    await activity(0, 'e');
    expect((await seal(1)).status).toBe(200);
    await activity(1, 'f');
    expect((await seal(0)).status).toBe(200);
    const last = (await verify(0)).lastCheckpoint.sequence as number;
    for (const i of [0, 1]) {
      expect(await verify(i)).toMatchObject({ ok: true, checkpointsVerified: last });
    }
    await bothMarked(last);
  });

  it('the database admin cuts the last checkpoint off: both replicas say so and neither signs over it', async () => {
    const [cut] = await sql(
      "SELECT position FROM slipway_events WHERE type = 'AuditCheckpointSealed' ORDER BY position DESC LIMIT 1",
    );
    const [kept] = await sql(
      "SELECT position, data FROM slipway_events WHERE type = 'AuditCheckpointSealed' AND position < $1 ORDER BY position DESC LIMIT 1",
      [cut.position],
    );
    const keptTo = (JSON.parse(kept.data) as { toPosition: number }).toPosition;
    await sql('DELETE FROM slipway_events WHERE position >= $1', [cut.position]);
    await sql("DELETE FROM pd_audit_chain WHERE (doc->>'position')::bigint > $1", [keptTo]);
    await activity(0, 'after-the-cut');
    for (const i of [0, 1]) {
      expect(await verify(i)).toMatchObject({
        ok: false,
        problem: 'truncated',
        firstBadPosition: Number(kept.position) + 1,
      });
      const refused = await seal(i);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toMatch(/does not hold what was signed/);
    }
    const alarms = await sql(
      "SELECT data FROM slipway_events WHERE type = 'AuditVerificationFailed'",
    );
    expect(alarms.map((a) => JSON.parse(a.data))).toEqual([
      expect.objectContaining({
        problem: 'truncated',
        firstBadPosition: Number(kept.position) + 1,
      }),
    ]);
  });
});
