import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { BulkWriter, ReadStore } from '../read-store.port.js';

/** A fresh store with `things` (indexed on `size`) and `others` declared. */
export type BulkWriterStore = ReadStore & { bulkWriter(): BulkWriter };

/**
 * What every store's bulk writer must do (see BulkWriter): submissions commit in order, each
 * read back once it resolves; close waits for them; a refused submission refuses the ones after.
 * `describeMore` adds the adapter's own tests, with the same store and writer.
 */
export function describeBulkWriterContract(
  name: string,
  open: () => Promise<{ store: BulkWriterStore; dispose(): Promise<void> }>,
  describeMore: (current: () => { store: BulkWriterStore; writer: BulkWriter }) => void = () => {},
): void {
  describe(`${name} bulk writer`, () => {
    let opened: { store: BulkWriterStore; dispose(): Promise<void> };
    let store: BulkWriterStore;
    let writer: BulkWriter | null;

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
      await store.ensureCollection({ name: 'things', indexes: [{ fields: ['size'] }] });
      await store.ensureCollection({ name: 'others' });
      writer = store.bulkWriter();
    });
    afterEach(async () => {
      await writer?.close();
      await opened.dispose();
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
        writer!.submit([
          { collection: 'things', put: { id: 'first', size: 1 } },
          { collection: 'things', put: { id: 'x'.repeat(513), size: 1 } },
        ]),
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
      // None of it written, not even what came before the bad id in its submission.
      expect(await things().count()).toBe(0);
    });

    describeMore(() => ({ store, writer: writer! }));
  });
}
