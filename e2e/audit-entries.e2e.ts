import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { downloadExport, trail } from './support/audit.js';
import { cli, cliHome } from './support/cli.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Whoever can edit the read models changes who an entry of the trail says acted, and removes
 * another: `auditTrail` shows it, so verification holds each entry against the event it was
 * projected from. The export makes its entries from the events, so it shows neither.
 */
describe('audit entries altered in the read models, on SQLite', () => {
  const home = cliHome();
  let t: TestApp;
  let owner: Record<string, string>;
  let viewerId: string;
  let altered: number;
  let removed: number;
  let original: string;

  const readModels = (work: (db: Database.Database) => void) => {
    const db = new Database(join(t.config.dataDir, 'read-models.sqlite'));
    work(db);
    db.close();
  };
  const verify = async () =>
    (await call(t.url, 'GET', 'verifyAuditTrail', owner)).body.result.data.json;
  const verifyExport = async (format: 'ndjson' | 'csv') => {
    const file = join(home, `trail.${format}`);
    await downloadExport(t.url, owner, file, `format=${format}`);
    return cli(home, ['audit', 'verify-export', file, '--json']);
  };

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    const account = await signUp(t.url, 'owner@example.com', 'Olive Owner');
    owner = cookieAuth(account.cookie);
    viewerId = (await signUp(t.url, 'viewer@example.com', 'Vic Viewer')).userId;
    for (let i = 0; i < 3; i++) await call(t.url, 'POST', 'createAgent', owner, { name: `b${i}` });
    await call(t.url, 'POST', 'sealAuditCheckpoint', owner);
    const agents = await trail(t, owner, { action: 'AgentCreated' });
    [removed, altered] = agents.entries.map((e) => e.position);
    expect(await verify()).toMatchObject({ ok: true });
    expect((await verify()).entriesVerified).toBeGreaterThan(altered);
    expect((await verifyExport('ndjson')).json.data).toMatchObject({ ok: true });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('an entry whose actor was changed: the trail shows it, verification names its position, the export does not carry it', async () => {
    readModels((db) => {
      const row = db.prepare('SELECT doc FROM rm_audit_trail WHERE id = ?').get(`p${altered}`) as {
        doc: string;
      };
      original = row.doc;
      const doc = { ...JSON.parse(row.doc), actorId: viewerId, actorRole: 'viewer' };
      db.prepare('UPDATE rm_audit_trail SET doc = ? WHERE id = ?').run(
        JSON.stringify(doc),
        `p${altered}`,
      );
    });
    const shown = (await trail(t, owner, { action: 'AgentCreated' })).entries;
    expect(shown.find((e) => e.position === altered)?.actor.label).toBe(
      'Vic Viewer <viewer@example.com>',
    );
    expect(await verify()).toMatchObject({
      ok: false,
      problem: 'entry-mismatch',
      firstBadPosition: altered,
      message: `the entry of the audit trail for event ${altered} does not match the event (actorId)`,
    });
    // The export's entries are made from the events, not read from the read model: it shows
    // the actor who acted, and verifies.
    for (const format of ['ndjson', 'csv'] as const) {
      const result = await verifyExport(format);
      expect([result.code, result.json.data?.ok]).toEqual([0, true]);
    }
    const record = readFileSync(join(home, 'trail.ndjson'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(
        (line) =>
          JSON.parse(line) as { kind: string; event?: { position: unknown }; entry?: unknown },
      )
      .find((r) => r.kind === 'event' && Number(r.event?.position) === altered);
    expect(JSON.stringify(record?.entry)).toContain('Olive Owner');
    expect(JSON.stringify(record?.entry)).not.toContain(viewerId);
  });

  it('an entry removed: a gap in the trail and a missing entry for verification, none in the export', async () => {
    readModels((db) => {
      // The first one back as it was projected; another one gone.
      db.prepare('UPDATE rm_audit_trail SET doc = ? WHERE id = ?').run(original, `p${altered}`);
      db.prepare('DELETE FROM rm_audit_trail WHERE id = ?').run(`p${removed}`);
    });
    expect(await verify()).toMatchObject({
      ok: false,
      problem: 'entry-missing',
      firstBadPosition: removed,
    });
    for (const format of ['ndjson', 'csv'] as const) {
      const result = await verifyExport(format);
      expect([result.code, result.json.data?.ok]).toEqual([0, true]);
    }
  });
});
