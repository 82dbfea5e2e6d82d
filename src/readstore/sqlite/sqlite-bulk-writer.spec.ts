import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import type { BulkWriter } from '../read-store.port.js';
import { SqliteReadStore } from './sqlite-read-store.js';

describe('SqliteReadStore bulk writer (a thread of its own)', () => {
  let dir: string;
  let file: string;
  let store: SqliteReadStore;
  let writer: BulkWriter | null;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-bulk-'));
    file = join(dir, 'read.sqlite');
    store = new SqliteReadStore(file);
    await store.ensureCollection({ name: 'things', indexes: [{ fields: ['size'] }] });
    await store.ensureCollection({ name: 'others' });
    writer = store.bulkWriter();
  });
  afterEach(async () => {
    await writer?.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const things = () => store.collection('things');

  it('commits submissions in order, and the store reads each once it resolves', async () => {
    await writer!.submit([
      { collection: 'things', put: { id: 'a', size: 1 } },
      { collection: 'things', put: { id: 'b', size: 2 } },
      { collection: 'others', put: { id: 'o', note: 'x' } },
    ]);
    expect(await things().get('b')).toEqual({ id: 'b', size: 2 });
    expect(await store.collection('others').get('o')).toEqual({ id: 'o', note: 'x' });
    // Not awaited in between: the later submission still commits after the earlier one.
    const replaced = writer!.submit([{ collection: 'things', put: { id: 'a', size: 10 } }]);
    const deleted = writer!.submit([
      { collection: 'things', put: { id: 'a', size: 20 } },
      { collection: 'things', delete: 'b' },
    ]);
    await Promise.all([replaced, deleted]);
    expect(await things().get('a')).toEqual({ id: 'a', size: 20 });
    expect(await things().get('b')).toBeNull();
    // Its index serves queries like the store's own writes.
    expect((await things().find({ size: { $gte: 5 } })).items.map((d) => d.id)).toEqual(['a']);
  });

  /** Frames in a store's write-ahead log (checkpointed only at 16,000 pages). */
  const walFrames = (path: string) => {
    const db = new Database(path);
    const frames = db.pragma('wal_checkpoint(PASSIVE)', { simple: false }) as { log: number }[];
    db.close();
    return frames[0].log;
  };

  /** 50 submissions of one document each, all queued at once or each awaited in turn. */
  const submitFifty = async (to: BulkWriter, together: boolean) => {
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      const submitted = to.submit([{ collection: 'things', put: { id: `q${i}`, size: i } }]);
      if (together) pending.push(submitted);
      else await submitted;
    }
    await Promise.all(pending);
  };

  it('commits submissions queued together in fewer transactions than one each', async () => {
    // Each commit adds the frames of the pages it changed (the table's and the index's) to the
    // log. Measured beside the same submissions made one after another on a store of its own,
    // so that the bound holds on a loaded machine, where the thread may start before all are
    // queued.
    await submitFifty(writer!, true);
    expect(await things().count()).toBe(50);
    const together = walFrames(file);
    const apart = join(dir, 'apart.sqlite');
    const other = new SqliteReadStore(apart);
    await other.ensureCollection({ name: 'things', indexes: [{ fields: ['size'] }] });
    await other.ensureCollection({ name: 'others' });
    const oneByOne = other.bulkWriter();
    await submitFifty(oneByOne, false);
    await oneByOne.close();
    // Both logs also hold the tables' creation, alike (read while the store is open: closing
    // the last connection checkpoints the log away).
    const apartFrames = walFrames(apart);
    await other.close();
    // Quiet: about a tenth; loaded: about half.
    expect(together).toBeLessThan(apartFrames * 0.75);
  });

  it('waits on close for what was submitted, and refuses submissions after it', async () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({
      collection: 'things',
      put: { id: `t${i}`, size: i },
    }));
    const submitted = writer!.submit(many);
    await writer!.close();
    await expect(submitted).resolves.toBeUndefined();
    expect(await things().count()).toBe(2_000);
    await expect(writer!.submit([])).rejects.toThrow(/closed/);
    writer = null;
  });

  it('refuses a bad id, an undeclared collection, and everything after either', async () => {
    await expect(
      writer!.submit([{ collection: 'things', put: { id: 'x'.repeat(513), size: 1 } }]),
    ).rejects.toThrow(/document id must be 1-512 characters/);
    await expect(writer!.submit([{ collection: 'things', put: { id: 'ok' } }])).rejects.toThrow(
      /document id/,
    );
    await writer!.close();

    writer = store.bulkWriter();
    await expect(writer.submit([{ collection: 'nope', put: { id: 'a' } }])).rejects.toThrow(
      /never declared/,
    );
    await expect(writer.submit([{ collection: 'things', put: { id: 'a' } }])).rejects.toThrow();
    expect(await things().get('ok')).toBeNull();
    expect(await things().get('a')).toBeNull();
  });

  it('rolls back a submission that fails in the thread and refuses the ones after it', async () => {
    await writer!.submit([{ collection: 'things', put: { id: 'kept', size: 1 } }]);
    // Another connection drops the table behind the writer's back: its next insert fails.
    const other = new Database(file);
    other.exec('DROP TABLE rm_others');
    other.close();
    const failing = writer!.submit([
      { collection: 'things', put: { id: 'rolled-back', size: 2 } },
      { collection: 'others', put: { id: 'o' } },
    ]);
    const after = writer!.submit([{ collection: 'things', put: { id: 'after', size: 3 } }]);
    await expect(failing).rejects.toThrow(/bulk write failed: no such table: rm_others/);
    // Committed in the same transaction as the failing one, or refused after it.
    await expect(after).rejects.toThrow(/no such table: rm_others|an earlier bulk write failed/);
    expect(await things().get('kept')).toMatchObject({ size: 1 });
    expect(await things().get('rolled-back')).toBeNull();
    expect(await things().get('after')).toBeNull();
  });
});
