import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import type { BulkWriter } from '../read-store.port.js';
import { describeBulkWriterContract } from '../testing/bulk-writer.contract-suite.js';
import { SqliteReadStore } from './sqlite-read-store.js';

let file: string;

describeBulkWriterContract(
  'SQLite (a thread of its own)',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slipway-bulk-'));
    file = join(dir, 'read.sqlite');
    const store = new SqliteReadStore(file);
    return {
      store,
      dispose: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  (current) => {
    const things = () => current().store.collection('things');

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
      await submitFifty(current().writer, true);
      expect(await things().count()).toBe(50);
      const together = walFrames(file);
      const apart = join(dirname(file), 'apart.sqlite');
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

    it('rolls back a submission that fails in the thread and refuses the ones after it', async () => {
      await current().writer.submit([{ collection: 'things', put: { id: 'kept', size: 1 } }]);
      // Another connection drops the table behind the writer's back: its next insert fails.
      const other = new Database(file);
      other.exec('DROP TABLE rm_others');
      other.close();
      const failing = current().writer.submit([
        { collection: 'things', put: { id: 'rolled-back', size: 2 } },
        { collection: 'others', put: { id: 'o' } },
      ]);
      const after = current().writer.submit([
        { collection: 'things', put: { id: 'after', size: 3 } },
      ]);
      await expect(failing).rejects.toThrow(/bulk write failed: no such table: rm_others/);
      // Committed in the same transaction as the failing one, or refused after it.
      await expect(after).rejects.toThrow(/no such table: rm_others|an earlier bulk write failed/);
      expect(await things().get('kept')).toMatchObject({ size: 1 });
      expect(await things().get('rolled-back')).toBeNull();
      expect(await things().get('after')).toBeNull();
    });
  },
);
