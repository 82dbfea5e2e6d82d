import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyExportFile } from '../src/audit/export/export-verifier.js';
import { allEvents, downloadExport } from './support/audit.js';
import { call, cookieAuth, logIn, memberWithRole } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

// A store written before password hashes were sealed: the owner's sign-up (position 1) holds
// its argon2id hash in clear, as every store of that time does.
const fixtureDir = fileURLToPath(new URL('./fixtures/legacy-store-9ccf61e', import.meta.url));
const fixture = JSON.parse(readFileSync(join(fixtureDir, 'fixture.json'), 'utf8')) as {
  email: string;
};

/** An argon2 hash in clear, wherever it is: what could be cracked offline. */
const CLEAR_HASH = /\$argon2(id|i|d)\$/;

describe('an admin takes the audit export: no password hash in it, and it still verifies', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-credentials-'));
  let t: TestApp;
  let owner: Record<string, string>;
  let admin: Record<string, string>;
  let ownerId: string;
  let publicKey: string;

  beforeAll(async () => {
    cpSync(fixtureDir, dataDir, { recursive: true });
    t = await startTestApp({ notes: false, config: { dataDir } });
    owner = cookieAuth(await logIn(t.url, fixture.email));
    admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    ownerId = (await allEvents(t)).find((e) => e.type === 'UserSignedUp')!.data.userId as string;
    await call(t.url, 'POST', 'sealAuditCheckpoint', owner);
    const report = await call(t.url, 'GET', 'verifyAuditTrail', owner);
    publicKey = report.body.result.data.json.publicKey as string;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function exportAs(auth: Record<string, string>, format: 'ndjson' | 'csv') {
    const file = join(dataDir, `export-${Date.now()}.${format}`);
    const bytes = await downloadExport(t.url, auth, file, `format=${format}`);
    return { file, text: bytes.toString('utf8') };
  }

  it('the rank rule holds: the admin cannot act on the owner', async () => {
    const res = await call(t.url, 'POST', 'deactivateUser', admin, { userId: ownerId });
    expect(res.status).toBe(403);
    expect(res.body.error.data.rule).toBe('rank');
  });

  it.each(['ndjson', 'csv'] as const)(
    "%s: the owner's hash is not in the admin's export, which verifies with only the public key",
    async (format) => {
      const { file, text } = await exportAs(admin, format);
      expect(text).not.toMatch(CLEAR_HASH);
      expect(text).toContain('[redacted sha256:');
      const report = await verifyExportFile(file, publicKey);
      expect(report).toMatchObject({ ok: true, redactedEvents: 1, keyFromAuditor: true });
      expect(report.checkpointsVerified).toBeGreaterThan(0);
      expect(report.message).toContain('credential fields redacted');
    },
  );

  it("the owner's export is the same: a hash goes to nobody, whatever their rank", async () => {
    const { file, text } = await exportAs(owner, 'ndjson');
    expect(text).not.toMatch(CLEAR_HASH);
    expect(await verifyExportFile(file, publicKey)).toMatchObject({ ok: true, redactedEvents: 1 });
  });

  it('records new hashes sealed, so new events are exported as stored and verify like any other', async () => {
    const signUps = (await allEvents(t)).filter((e) => e.type === 'UserSignedUp');
    const fresh = signUps.find((e) => e.data.userId !== ownerId)!;
    expect(fresh.data.passwordHash).toMatch(/^v2\./);
    const { text } = await exportAs(admin, 'ndjson');
    expect(text).toContain(fresh.data.passwordHash as string);
    // The admin signs in with it: the sealed hash is what the login checks.
    expect(await logIn(t.url, 'admin@example.com')).toMatch(/^slipway_session=/);
  });

  it('still catches an event altered in the store before the export', async () => {
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(join(dataDir, 'events.sqlite'));
    db.prepare(
      'UPDATE events SET data = replace(data, \'"role":"owner"\', \'"role":"viewer"\') WHERE position = 1',
    ).run();
    db.close();
    const { file } = await exportAs(admin, 'ndjson');
    expect(await verifyExportFile(file, publicKey)).toMatchObject({
      ok: false,
      problem: 'modified',
    });
  });
});
