import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { AUDIT_CHECKPOINTS_STREAM, checkpointDigest } from '../../events/audit.events.js';
import { SqliteEventStore } from '../../eventstore/sqlite/sqlite-event-store.js';
import { testEvent } from '../../eventstore/testing/test-events.js';
import { SqliteReadStore } from '../../readstore/sqlite/sqlite-read-store.js';
import { AuditSigningKey } from '../audit-signing-key.js';
import { chainLink, GENESIS } from '../hash-chain.js';
import type { EntryResolver } from '../trail/entry-resolver.js';
import { auditEntryView } from '../trail/audit-entry-view.js';
import { auditEntryOf, type AuditEntryDoc } from '../../../projections/audit-trail.projection.js';
import { AuditExporter } from './audit-exporter.js';
import type { ExportFormat } from './export-codecs.js';
import type { RawEvent } from './export-format.js';
import { placeholderOf, redactionProblem } from './export-redaction.js';
import { verifyExportFile } from './export-verifier.js';

const OWNER_HASH = '$argon2id$v=19$m=19456,t=2,p=1$b3duZXJzYWx0$b3duZXJoYXNo';
const NEW_HASH = '$argon2id$v=19$m=19456,t=2,p=1$bmV3c2FsdA$bmV3aGFzaA';
const LATE_HASH = '$argon2id$v=19$m=19456,t=2,p=1$bGF0ZXNhbHQ$bGF0ZWhhc2g';
/** Entries as the resolver shows them, with nothing resolved beyond what the event says. */
const entries = {
  resolve: (docs: AuditEntryDoc[]) =>
    Promise.resolve(
      docs.map((d) => auditEntryView(d, { label: '', tokenName: null, clientAddress: null })),
    ),
} as unknown as EntryResolver;

describe('the export redacts password hashes and still verifies offline', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  let key: AuditSigningKey;

  /** Events 1-3, a checkpoint over them (4), and one event after it (5). */
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-redaction-'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'), { watch: false });
    reads = new SqliteReadStore(join(dir, 'read-models.sqlite'));
    await reads.ensureCollection({ name: 'audit_trail' });
    key = AuditSigningKey.load(dir, undefined);
    const signUp = { userId: 'u-1', role: 'owner', passwordHash: OWNER_HASH };
    await events.append('team-members', [testEvent('UserSignedUp', signUp)], 'any');
    await events.append('agent-1', [testEvent('AgentCreated', { name: 'bot' })], 'any');
    const change = { userId: 'u-1', passwordHash: NEW_HASH, reason: 'reset' };
    await events.append('user-u-1', [testEvent('PasswordChanged', change)], 'any');
    let link = GENESIS;
    for (const [i, e] of (await events.readAll(1n, 10)).entries()) link = chainLink(link, e, i + 1);
    const fields = {
      sequence: 1,
      toPosition: 3,
      toStream: 'user-u-1',
      toRevision: 0,
      chainHash: link,
      previousCheckpointHash: GENESIS,
    };
    const sealed = { ...fields, signature: key.sign(checkpointDigest(fields)) };
    await events.append(
      AUDIT_CHECKPOINTS_STREAM,
      [testEvent('AuditCheckpointSealed', sealed)],
      'any',
    );
    const late = { userId: 'u-2', role: 'viewer', passwordHash: LATE_HASH };
    await events.append('team-members', [testEvent('UserSignedUp', late)], 'any');
  });
  afterEach(async () => {
    await events.close();
    reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function exportFile(format: ExportFormat): Promise<string> {
    const trail = reads.collection<AuditEntryDoc>('audit_trail');
    for (const e of await events.readAll(1n, 100)) await trail.put(auditEntryOf(e));
    const exporter = new AuditExporter(events, key, entries);
    let text = '';
    for await (const chunk of exporter.chunks(format, {})) text += chunk;
    const file = join(dir, `export.${format}`);
    writeFileSync(file, text);
    return file;
  }

  it.each(['ndjson', 'csv'] as const)(
    '%s: no hash, a digest in its place, and the chain verifies through it',
    async (format) => {
      const file = await exportFile(format);
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain('$argon2id');
      expect(text).toContain(placeholderOf(OWNER_HASH));
      const report = await verifyExportFile(file, key.publicKeyPem);
      expect(report).toMatchObject({
        ok: true,
        eventsVerified: 5,
        checkpointsVerified: 1,
        redactedEvents: 3,
        unsealedEvents: 1,
        // Events 1-2 precede the redacted event 3 in the stretch checkpoint 4 seals.
        unboundEvents: 2,
        unboundRanges: [{ from: 1, to: 2 }],
      });
      expect(report.message).toContain('3 events have credential fields redacted');
      expect(report.message).toContain('(positions 1-2)');
    },
  );

  it('shows a sealed hash as stored: its event verifies like any other', async () => {
    const sealed = 'v2.aXZpdml2aXZpdml2.dGFndGFndGFndGFndGFn.Y2lwaGVydGV4dA';
    const change = { userId: 'u-2', passwordHash: sealed, reason: 'reset' };
    await events.append('user-u-2', [testEvent('PasswordChanged', change)], 'any');
    const file = await exportFile('ndjson');
    expect(readFileSync(file, 'utf8')).toContain(sealed);
    const report = await verifyExportFile(file, key.publicKeyPem);
    expect(report).toMatchObject({ ok: true, eventsVerified: 6, redactedEvents: 3 });
  });

  it('still catches a redacted event changed in the store after it was sealed', async () => {
    const db = new Database(join(dir, 'events.sqlite'));
    db.prepare(
      "UPDATE events SET data = replace(data, 'owner', 'viewer') WHERE position = 1",
    ).run();
    db.close();
    const report = await verifyExportFile(await exportFile('ndjson'), key.publicKeyPem);
    expect(report).toMatchObject({ ok: false, problem: 'modified' });
  });

  /** The export with event `line`'s given link replaced, signed again with the audit key. */
  async function forgedLink(line: number): Promise<string> {
    const file = await exportFile('ndjson');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const record = JSON.parse(lines[line]) as { redaction: { link: string } };
    record.redaction.link = createHash('sha256').update('forged').digest('hex');
    lines[line] = JSON.stringify(record);
    const body = lines.slice(0, -1).join('\n') + '\n';
    const sha256 = createHash('sha256').update(body).digest('hex');
    const signature = { kind: 'signature', sha256, signature: key.sign(sha256), events: 5 };
    writeFileSync(file, body + JSON.stringify(signature) + '\n');
    return file;
  }

  it('checks the last given link of a sealed stretch against its checkpoint', async () => {
    const report = await verifyExportFile(await forgedLink(3), key.publicKeyPem);
    expect(report).toMatchObject({ ok: false, problem: 'modified' });
  });

  it('cannot check what precedes it in the stretch, and says which events those are', async () => {
    // Only the audit key's holder could sign this; the report names event 1 as unbound.
    const report = await verifyExportFile(await forgedLink(1), key.publicKeyPem);
    expect(report).toMatchObject({ ok: true, unboundRanges: [{ from: 1, to: 2 }] });
  });
});

describe('redactionProblem', () => {
  const event = (data: Record<string, unknown>): RawEvent => ({
    position: '7',
    id: 'e',
    type: 'UserSignedUp',
    stream: 'team-members',
    revision: '0',
    schemaVersion: 2,
    recordedAt: '2026-01-01T00:00:00.000Z',
    data,
    metadata: testEvent('x').metadata,
  });
  const link = 'a'.repeat(64);

  it('accepts credential fields shown as placeholders only', () => {
    const shown = event({ role: 'owner', passwordHash: placeholderOf(OWNER_HASH) });
    expect(redactionProblem(shown, { fields: ['passwordHash'], link })).toBeNull();
    expect(redactionProblem(shown, { fields: ['role'], link })).toMatch(/not a credential field/);
    expect(redactionProblem(shown, { fields: ['passwordHash'], link: 'x' })).toMatch(/no link/);
    expect(redactionProblem(shown, { fields: [], link })).toMatch(/no fields/);
    expect(redactionProblem(shown, null)).toMatch(/no link/);
    const clear = event({ role: 'owner', passwordHash: OWNER_HASH });
    expect(redactionProblem(clear, { fields: ['passwordHash'], link })).toMatch(/is not/);
  });
});
