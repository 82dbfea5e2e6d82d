import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fileStoreHarness, type StoreHarness } from '../common/testing/store-harness.js';
import { MongoReadStore } from './mongo/mongo-read-store.js';
import { moveCollections, STORE_MOVES, type StoreMoveDoc } from './move-collections.js';
import type { CollectionSpec, Doc, ReadStore } from './read-store.port.js';
import { SqliteReadStore } from './sqlite/sqlite-read-store.js';

const LINES: CollectionSpec = { name: 'lines', indexes: [{ fields: ['run', 'n'] }] };
const USAGE: CollectionSpec = { name: 'usage' };
const MOVE = 'lines-and-usage';

const line = (n: number, text = `line ${n}`): Doc => ({
  id: `run-1:${String(n).padStart(4, '0')}`,
  run: 'run-1',
  n,
  text,
});

async function all(store: ReadStore, name: string): Promise<Doc[]> {
  const out: Doc[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.collection(name).find({}, { sort: { id: 1 }, limit: 1000, cursor });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

function describeMove(
  adapter: string,
  open: () => Promise<{ from: StoreHarness<ReadStore>; to: StoreHarness<ReadStore> }>,
): void {
  describe(`moveCollections: ${adapter}`, () => {
    let from: StoreHarness<ReadStore>;
    let to: StoreHarness<ReadStore>;
    const lines = Array.from({ length: 1234 }, (_, i) => line(i + 1));

    beforeEach(async () => {
      ({ from, to } = await open());
      await from.store.ensureCollection(LINES);
      await from.store.ensureCollection(USAGE);
      await from.store.transaction(async (s) => {
        for (const l of lines) await s.collection('lines').put(l);
        await s.collection('usage').put({ id: 'tok-1', lastUsedAt: '2025-01-01T00:00:00.000Z' });
      });
    });
    afterEach(async () => {
      await from.dispose();
      await to.dispose();
    });

    it('copies every document, marks the move done, then empties the old place', async () => {
      const at = new Date('2025-02-03T04:05:06.000Z');
      const report = await moveCollections(from.store, to.store, [LINES, USAGE], MOVE, () => at);
      expect(report).toEqual({ copied: { lines: 1234, usage: 1 }, alreadyDone: false });
      expect(await all(to.store, 'lines')).toEqual(lines);
      expect(await to.store.collection('usage').get('tok-1')).toMatchObject({
        lastUsedAt: '2025-01-01T00:00:00.000Z',
      });
      expect(await to.store.collection<StoreMoveDoc>(STORE_MOVES.name).get(MOVE)).toEqual({
        id: MOVE,
        movedAt: at.toISOString(),
        documents: { lines: 1234, usage: 1 },
      });
      expect(await from.store.collection('lines').count()).toBe(0);
      expect(await from.store.collection('usage').count()).toBe(0);
      // The destination declared the collections with their indexes: it can be written at once.
      await to.store.collection('lines').put(line(9999));
    });

    it('a second start moves nothing and changes nothing', async () => {
      await moveCollections(from.store, to.store, [LINES, USAGE], MOVE);
      await to.store
        .collection('usage')
        .put({ id: 'tok-1', lastUsedAt: '2025-03-01T00:00:00.000Z' });
      const [source, target] = [await from.reopen(), await to.reopen()];
      const again = await moveCollections(source, target, [LINES, USAGE], MOVE);
      expect(again).toEqual({ copied: {}, alreadyDone: true });
      expect(await all(target, 'lines')).toEqual(lines);
      expect(await target.collection('usage').get('tok-1')).toMatchObject({
        lastUsedAt: '2025-03-01T00:00:00.000Z',
      });
    });

    it('resumes a copy stopped halfway without overwriting what the destination holds', async () => {
      // As a stop after some pages: part copied, one of them already changed since.
      await to.store.ensureCollection(LINES);
      await to.store.transaction(async (s) => {
        for (const l of lines.slice(0, 500)) await s.collection('lines').put(l);
        await s.collection('lines').put(line(7, 'newer'));
      });
      const report = await moveCollections(from.store, to.store, [LINES, USAGE], MOVE);
      expect(report.copied).toEqual({ lines: 734, usage: 1 });
      const moved = await all(to.store, 'lines');
      expect(moved).toHaveLength(1234);
      expect(moved[6]).toEqual(line(7, 'newer'));
      expect(await from.store.collection('lines').count()).toBe(0);
    });

    it('moves what it finds in the old place after the mark (a stop before it was emptied)', async () => {
      await moveCollections(from.store, to.store, [LINES, USAGE], MOVE);
      await from.store.collection('lines').put(line(1, 'left behind'));
      await from.store.collection('lines').put(line(5000));
      const report = await moveCollections(from.store, to.store, [LINES, USAGE], MOVE);
      expect(report).toEqual({ copied: { lines: 1 }, alreadyDone: true });
      expect(await to.store.collection('lines').get(line(1).id)).toEqual(line(1));
      expect(await to.store.collection('lines').get(line(5000).id)).toEqual(line(5000));
      expect(await from.store.collection('lines').count()).toBe(0);
    });

    it('on a store that never held them, only marks the move done', async () => {
      await from.store.collection('lines').clear();
      await from.store.collection('usage').clear();
      const report = await moveCollections(from.store, to.store, [LINES, USAGE], MOVE);
      expect(report).toEqual({ copied: {}, alreadyDone: false });
      expect(await to.store.collection(STORE_MOVES.name).get(MOVE)).toMatchObject({
        documents: {},
      });
    });
  });
}

describeMove('sqlite', async () => ({
  from: fileStoreHarness('read-models.sqlite', (file) => new SqliteReadStore(file)),
  to: fileStoreHarness('primary.sqlite', (file) => new SqliteReadStore(file, { durable: true })),
}));

const url = process.env.SLIPWAY_MONGODB_URL;
if (url) {
  // Two databases on the shared server, as the read models' and the primary store's.
  const mongoHarness = async (database: string): Promise<StoreHarness<ReadStore>> => {
    let store = await MongoReadStore.connect(url, database);
    return {
      store,
      reopen: async () => {
        await store.close();
        store = await MongoReadStore.connect(url, database);
        return store;
      },
      dispose: async () => {
        await store.dropDatabase();
        await store.close();
      },
    };
  };
  describeMove('MongoDB', async () => {
    const base = `slipway_test_${randomUUID().slice(0, 8)}`;
    return { from: await mongoHarness(base), to: await mongoHarness(`${base}_primary`) };
  });
} else {
  describe('moveCollections: MongoDB', () => {
    it.skip('skipped: SLIPWAY_MONGODB_URL is not set (mongodb://host:27017/?replicaSet=rs0)', () => {});
  });
}
