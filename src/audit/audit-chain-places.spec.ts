import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { systemClock } from '../common/clock.js';
import { loadConfig } from '../config/app-config.js';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
} from '../eventstore/event-store.port.js';
import { copyEvents } from '../eventstore/migrate-events.js';
import { SqliteEventStore } from '../eventstore/sqlite/sqlite-event-store.js';
import { NamespacedEventStore } from '../eventstore/testing/namespaced-event-store.js';
import { testEvent } from '../eventstore/testing/test-events.js';
import { anonymousContext } from '../kernel/request-context.js';
import { PersonalData } from '../privacy/personal-data.js';
import { SubjectKeyVault } from '../privacy/subject-key-vault.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import { SecretBox } from '../secrets/secret-box.js';
import { EventWriter } from '../storage/event-writer.js';
import { AuditSealer } from './audit-sealer.js';
import { AuditSigningKey } from './audit-signing-key.js';
import { AuditVerification } from './audit-verification.js';
import { AuditMarks } from './mark/audit-marks.js';
import { positionAfter } from './chain-places.js';

/**
 * A store with sparse positions, as EventStoreDB gives them: one namespace of a SQLite store
 * into which another writer appends an event after each of this one's appends. It stands in for
 * the server, which cannot run here; the thing under test is the audit chain on top of it.
 */
class InterleavedStore extends NamespacedEventStore {
  private noise = 0;

  constructor(private readonly shared: SqliteEventStore) {
    super(shared, 'm-');
  }

  override async append(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const result = await super.append(stream, events, expected);
    await this.shared.append(`other-${++this.noise}`, [testEvent('Noise')], 'no_stream');
    return result;
  }
}

const config = loadConfig({
  SLIPWAY_AUDIT_SEAL_EVERY_EVENTS: '0',
  SLIPWAY_AUDIT_SEAL_SECONDS: '0',
});
const ctx = { ...anonymousContext('test', 'test', null), authMethod: 'system' as const };

describe('the audit chain counts places in the global order, so it survives sparse positions', () => {
  let dir: string;
  const closers: (() => Promise<void> | void)[] = [];
  let key: AuditSigningKey;
  let personal: PersonalData;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-places-'));
    key = AuditSigningKey.load(dir, undefined);
    const box = new SecretBox(randomBytes(32));
    const primary = new SqliteReadStore(join(dir, 'primary.sqlite'), { durable: true });
    closers.push(() => primary.close());
    personal = new PersonalData(await SubjectKeyVault.open(primary, box), systemClock, box);
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  const readStore = (name: string) => {
    const reads = new SqliteReadStore(join(dir, `${name}.sqlite`));
    closers.push(() => reads.close());
    return reads;
  };
  /** The sealer and the verifier of one store, as the service wires them (a mark each). */
  const auditOf = async (events: EventStore, reads: SqliteReadStore) => {
    const writer = new EventWriter(events, { caughtUp: async () => undefined }, personal);
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const marks = new AuditMarks(events, { ...config, dataDir }, key, writer);
    const sealer = new AuditSealer(events, reads, key, config, writer, marks);
    await sealer.onApplicationBootstrap();
    return { sealer, verification: new AuditVerification(events, reads, key, marks, null) };
  };
  const activity = async (events: EventStore, prefix: string, count: number) => {
    for (let i = 0; i < count; i++) {
      await events.append(`${prefix}-${i % 3}`, [testEvent('Thing', { i })], 'any');
    }
  };

  it('verifies a chain sealed on SQLite after a copy into a sparse store, and keeps sealing there', async () => {
    // Given a SQLite store with two checkpoints and events after them
    const source = new SqliteEventStore(join(dir, 'source.sqlite'));
    closers.push(() => source.close());
    const sourceAudit = await auditOf(source, readStore('source-reads'));
    await activity(source, 'a', 5);
    await sourceAudit.sealer.seal(ctx);
    await activity(source, 'b', 4);
    await sourceAudit.sealer.seal(ctx);
    await activity(source, 'c', 2);
    const total = Number(await source.headPosition());

    // When it is copied into a store whose positions leave gaps, with an empty read store
    const shared = new SqliteEventStore(join(dir, 'shared.sqlite'));
    const target = new InterleavedStore(shared);
    closers.push(() => target.close());
    expect((await copyEvents(source, target)).mismatches).toEqual([]);
    const copied = await target.readAll(1n, 1000);
    expect(copied.map((e) => Number(e.position))).not.toEqual(copied.map((_, i) => i + 1));
    const targetAudit = await auditOf(target, readStore('target-reads'));

    // Then the whole chain verifies there, both checkpoints included
    expect(await targetAudit.verification.verify()).toMatchObject({
      ok: true,
      eventsVerified: total,
      checkpointsVerified: 2,
    });
    // And a range verifies from the checkpoint before it
    const fromPosition = Number(copied[copied.length - 3].position);
    expect(await targetAudit.verification.verify({ fromPosition })).toMatchObject({ ok: true });
    // And sealing continues after the last place sealed on SQLite
    await activity(target, 'd', 3);
    const third = await targetAudit.sealer.seal(ctx);
    expect(third).toMatchObject({ sequence: 3, toPosition: total + 3 });
    expect(await targetAudit.verification.verify()).toMatchObject({
      ok: true,
      eventsVerified: total + 4,
      checkpointsVerified: 3,
    });
  });

  it('finds where to resume after a checkpoint that does not name its event, by counting', async () => {
    const target = new InterleavedStore(new SqliteEventStore(join(dir, 'shared.sqlite')));
    closers.push(() => target.close());
    await activity(target, 'a', 6);
    const events = await target.readAll(1n, 100);
    const older = { sequence: 1, toPosition: 4, chainHash: '', previousCheckpointHash: '' };
    expect(await positionAfter(target, older)).toBe(events[3].position + 1n);
    const named = { ...older, toStream: events[3].stream, toRevision: Number(events[3].revision) };
    expect(await positionAfter(target, named)).toBe(events[3].position + 1n);
    // Fewer events than sealed: past the last one, where verification reports what is missing.
    expect(await positionAfter(target, { ...older, toPosition: 9 })).toBe(events[5].position + 1n);
  });

  describe('tampering on a sparse store', () => {
    /** A sealed sparse store whose read store has no recorded links (as after a migration). */
    async function sealedSparse() {
      const file = join(dir, 'shared.sqlite');
      const target = new InterleavedStore(new SqliteEventStore(file));
      closers.push(() => target.close());
      const { sealer } = await auditOf(target, readStore('sealing-reads'));
      await activity(target, 'a', 6);
      await sealer.seal(ctx);
      const { verification } = await auditOf(target, readStore('fresh-reads'));
      const events = await target.readAll(1n, 100);
      const tamper = (sql: string, ...params: unknown[]) => {
        const db = new Database(file);
        db.prepare(sql).run(...params);
        db.close();
      };
      return { verification, events, tamper };
    }

    it('names a deletion at the checkpoint that sealed more events than are left', async () => {
      const { verification, events, tamper } = await sealedSparse();
      tamper('DELETE FROM events WHERE id = ?', events[2].id);
      const checkpoint = events.find((e) => e.type === 'AuditCheckpointSealed')!;
      expect(await verification.verify()).toMatchObject({
        ok: false,
        problem: 'deleted',
        firstBadPosition: Number(checkpoint.position),
      });
    });

    it('names a modification', async () => {
      const { verification, events, tamper } = await sealedSparse();
      tamper('UPDATE events SET data = ? WHERE id = ?', '{"i":99}', events[1].id);
      expect(await verification.verify()).toMatchObject({ ok: false, problem: 'modified' });
    });
  });
});
