import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import request from 'supertest';
import { anonymousContext } from '../src/kernel/request-context.js';
import { PrivacyReconciler } from '../src/audit/privacy/privacy-reconciler.js';
import { privacyStream, SubjectDataErased, userSubject } from '../src/events/privacy.events.js';
import { EventWriter } from '../src/storage/event-writer.js';
import { downloadExport, eventsText, trail } from './support/audit.js';
import { cli, cliHome } from './support/cli.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
  type Account,
} from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('audit trail: query, signed export verified offline, erasure that keeps verification', () => {
  let t: TestApp;
  let account: Account;
  let owner: Record<string, string>;
  let home: string;
  let publicKeyFile: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    account = await signUp(t.url, 'owner@example.com', 'Olive Owner');
    owner = cookieAuth(account.cookie);
    for (let i = 0; i < 3; i++)
      await call(t.url, 'POST', 'createAgent', owner, { name: `bot-${i}` });
    await call(t.url, 'POST', 'sealAuditCheckpoint', owner);
    await call(t.url, 'POST', 'createAgent', owner, { name: 'after-seal' });
    home = cliHome();
    const report = (await call(t.url, 'GET', 'verifyAuditTrail', owner)).body.result.data.json;
    publicKeyFile = join(home, 'audit-public.pem');
    writeFileSync(publicKeyFile, report.publicKey as string);
  });
  afterAll(async () => t.close());

  it('lists newest first with filters, cursor pages and bounded limits', async () => {
    const all = await trail(t, owner, { limit: 500 });
    const positions = all.entries.map((e) => e.position);
    expect(positions).toEqual([...positions].sort((a, b) => b - a));
    expect(all.entries.find((e) => e.action === 'UserSignedUp')).toMatchObject({
      outcome: 'succeeded',
      resource: 'team-members',
      actor: { id: account.userId, label: 'Olive Owner <owner@example.com>' },
      // Sign-up: the new user acts, before any credential existed.
      authMethod: 'none',
    });
    const agents = await trail(t, owner, { action: 'AgentCreated', limit: 2 });
    expect(agents.entries).toHaveLength(2);
    expect(agents.entries[0]).toMatchObject({ authMethod: 'session', actor: { role: 'owner' } });
    const next = await trail(t, owner, {
      action: 'AgentCreated',
      limit: 2,
      cursor: agents.nextCursor,
    });
    expect(next.entries.map((e) => e.position)).not.toContain(agents.entries[0].position);
    expect(next.entries[0].position).toBeLessThan(agents.entries[1].position);
    const byActor = await trail(t, owner, { actor: account.userId, outcome: 'succeeded' });
    expect(byActor.entries.every((e) => e.actor.id === account.userId)).toBe(true);
    const future = await trail(t, owner, { from: '2999-01-01T00:00:00Z' });
    expect(future.entries).toEqual([]);
    for (const bad of [
      { limit: 0 },
      { limit: 501 },
      { outcome: 'maybe' },
      { from: 'yesterday' },
      { from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z' },
    ]) {
      const res = await call(t.url, 'GET', 'auditTrail', owner, bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
  });

  it('verifies a range from the signed checkpoint before it', async () => {
    const whole = (await call(t.url, 'GET', 'verifyAuditTrail', owner)).body.result.data.json;
    const head = whole.eventsVerified as number;
    const res = await call(t.url, 'GET', 'verifyAuditTrail', owner, {
      fromPosition: head,
      toPosition: head,
    });
    expect(res.body.result.data.json).toMatchObject({ ok: true, toPosition: head });
    expect(res.body.result.data.json.fromPosition).toBeGreaterThan(1);
    expect(
      (await call(t.url, 'GET', 'verifyAuditTrail', owner, { fromPosition: 5, toPosition: 2 }))
        .status,
    ).toBe(400);
  });

  async function exportTo(format: 'ndjson' | 'csv', query = ''): Promise<string> {
    const file = join(home, `export-${format}-${Date.now()}.${format}`);
    await downloadExport(t.url, owner, file, `format=${format}${query}`);
    return file;
  }

  const verifyOffline = (file: string) =>
    cli(home, ['audit', 'verify-export', file, '--public-key', publicKeyFile, '--json']);

  it.each(['ndjson', 'csv'] as const)(
    'exports %s that verifies offline with only the public key, and fails after one changed byte',
    async (format) => {
      const file = await exportTo(format);
      const ok = await verifyOffline(file);
      expect(ok.code).toBe(0);
      expect(ok.json.data).toMatchObject({
        ok: true,
        checkpointsVerified: 1,
        keyFromAuditor: true,
      });
      const bytes = readFileSync(file);
      // One byte inside an event's data, halfway through the file.
      const at = bytes.indexOf(Buffer.from('bot-1')) + 4;
      const altered = Buffer.from(bytes);
      altered[at] = '9'.charCodeAt(0);
      writeFileSync(file, altered);
      const broken = await verifyOffline(file);
      expect(broken.code).toBe(1);
      expect(broken.json.error?.code).toBe('AUDIT_EXPORT_BROKEN');
    },
  );

  it('refuses an export checked against another key, and a truncated export', async () => {
    const file = await exportTo('ndjson');
    const otherKey = join(home, 'other.pem');
    const { generateKeyPairSync } = await import('node:crypto');
    writeFileSync(
      otherKey,
      generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }),
    );
    const wrongKey = await cli(home, [
      'audit',
      'verify-export',
      file,
      '--public-key',
      otherKey,
      '--json',
    ]);
    expect(wrongKey.code).toBe(1);
    const text = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, text.slice(0, text.length - 3).join('\n') + '\n');
    expect((await verifyOffline(file)).code).toBe(1);
  });

  it('exports a range that starts after a checkpoint and still verifies', async () => {
    const whole = (await call(t.url, 'GET', 'verifyAuditTrail', owner)).body.result.data.json;
    const file = await exportTo('ndjson', `&from=${whole.eventsVerified as number}`);
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]);
    expect(header.anchor).not.toBeNull();
    expect((await verifyOffline(file)).json.data).toMatchObject({ ok: true });
    // A range in the future is empty, and still a valid, signed export.
    const empty = await exportTo('ndjson', '&from=2999-01-01T00:00:00Z');
    expect(readFileSync(empty, 'utf8').trim().split('\n')).toHaveLength(2);
    expect((await verifyOffline(empty)).json.data).toMatchObject({ ok: true, eventsVerified: 0 });
  });

  it('checks the export route like every other: roles, scopes, input', async () => {
    const admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    expect((await request(t.url).get('/api/v1/audit/export')).status).toBe(401);
    const readOnly = await createToken(t.url, account.cookie, ['deploy:read'], 7);
    expect(
      (await request(t.url).get('/api/v1/audit/export').set(bearer(readOnly.token))).status,
    ).toBe(403);
    const withAudit = await createToken(t.url, account.cookie, ['audit:read'], 7);
    expect(
      (await request(t.url).get('/api/v1/audit/export').set(bearer(withAudit.token))).status,
    ).toBe(200);
    expect((await request(t.url).get('/api/v1/audit/export').set(admin)).status).toBe(200);
    const bad = await request(t.url).get('/api/v1/audit/export?format=xml').set(owner);
    expect(bad.status).toBe(400);
    expect((await request(t.url).get('/api/v1/audit/export?from=9&to=3').set(owner)).status).toBe(
      400,
    );
  });

  it('erases a deactivated user by deleting their key: values unreadable, events unchanged, chain verifies', async () => {
    const leaver = await signUp(t.url, 'leaver@example.com', 'Lee Leaver');
    const admin = await memberWithRole(t.url, owner, 'admin2@example.com', 'admin');
    const early = await call(t.url, 'POST', 'eraseSubjectData', owner, { userId: leaver.userId });
    expect(early.status).toBe(409);
    await call(t.url, 'POST', 'deactivateUser', owner, { userId: leaver.userId });
    expect(
      (await call(t.url, 'POST', 'eraseSubjectData', admin, { userId: leaver.userId })).status,
    ).toBe(403);
    const beforeText = await eventsText(t);
    expect(beforeText).not.toContain('leaver@example.com');
    await call(t.url, 'POST', 'sealAuditCheckpoint', owner);
    const erased = await call(t.url, 'POST', 'eraseSubjectData', owner, { userId: leaver.userId });
    expect(erased.status).toBe(200);
    expect(
      (await call(t.url, 'POST', 'eraseSubjectData', owner, { userId: leaver.userId })).status,
    ).toBe(409);

    const members = (await call(t.url, 'GET', 'members', owner, { limit: 50 })).body.result.data
      .json;
    expect(members.items.find((m: { id: string }) => m.id === leaver.userId)).toMatchObject({
      name: '[erased]',
      email: '[erased]',
    });
    const theirs = await trail(t, owner, { actor: leaver.userId });
    expect(theirs.entries.length).toBeGreaterThan(0);
    for (const entry of theirs.entries) {
      expect(entry.actor.label).toBe('[erased] <[erased]>');
      if (entry.clientAddress !== null) expect(entry.clientAddress).toBe('[erased]');
    }
    const report = (await call(t.url, 'GET', 'verifyAuditTrail', owner)).body.result.data.json;
    expect(report).toMatchObject({ ok: true });
    const file = await exportTo('ndjson');
    expect(readFileSync(file, 'utf8')).not.toContain('leaver@example.com');
    expect((await verifyOffline(file)).json.data).toMatchObject({ ok: true });
    // The erasure itself is on the trail, attributed to the owner.
    const record = await trail(t, owner, { action: 'SubjectDataErased' });
    expect(record.entries[0]).toMatchObject({
      actor: { id: account.userId },
      stream: `privacy-${leaver.userId}`,
    });
  });

  it('completes an erasure that was recorded but not carried out (crash in between)', async () => {
    const leaver = await signUp(t.url, 'crashed@example.com', 'Cora Crash');
    await call(t.url, 'POST', 'deactivateUser', owner, { userId: leaver.userId });
    const ctx = { ...anonymousContext('test', 'test', null), authMethod: 'system' as const };
    await t.app
      .get(EventWriter)
      .append(
        privacyStream(leaver.userId),
        [SubjectDataErased({ userId: leaver.userId, subject: userSubject(leaver.userId) })],
        'no_stream',
        ctx,
      );
    expect(await t.app.get(PrivacyReconciler).reconcile()).toBe(1);
    const members = (await call(t.url, 'GET', 'members', owner, { limit: 50 })).body.result.data
      .json;
    expect(members.items.find((m: { id: string }) => m.id === leaver.userId).email).toBe(
      '[erased]',
    );
    expect(await t.app.get(PrivacyReconciler).reconcile()).toBe(0);
  });

  it('lists, exports and verifies through the CLI', async () => {
    const minted = await createToken(t.url, account.cookie, ['audit:read'], 7);
    const env = { SLIPWAY_URL: t.url, SLIPWAY_TOKEN: minted.token };
    const list = await cli(
      home,
      ['audit', 'list', '--action', 'AgentCreated', '--limit', '2', '--json'],
      env,
    );
    expect(list.code).toBe(0);
    expect((list.json.data as { entries: unknown[] }).entries).toHaveLength(2);
    const human = await cli(home, ['audit', 'list', '--limit', '3'], env);
    expect(human.stdout).toContain('Olive Owner');
    const file = join(home, 'cli-export.ndjson');
    const exported = await cli(home, ['audit', 'export', file, '--json'], env);
    expect(exported.code).toBe(0);
    expect((await verifyOffline(file)).code).toBe(0);
  });

  it('catches events altered in the store before the export: the file is signed, the chain is not', async () => {
    const db = new Database(join(t.config.dataDir, 'events.sqlite'));
    const row = db
      .prepare("SELECT position FROM events WHERE type = 'AgentCreated' ORDER BY position LIMIT 1")
      .get() as { position: number };
    db.prepare("UPDATE events SET data = replace(data, 'bot-0', 'bot-X') WHERE position = ?").run(
      row.position,
    );
    db.close();
    const file = await exportTo('ndjson');
    const result = await verifyOffline(file);
    expect(result.code).toBe(1);
    expect(result.json.error?.data.report).toMatchObject({ ok: false, problem: 'modified' });
  });
});
