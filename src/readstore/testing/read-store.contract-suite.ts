import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { InvalidQueryError } from '../invalid-query.error.js';
import type { Doc, ReadStore, SortSpec } from '../read-store.port.js';
import type { StoreHarness } from '../../common/testing/store-harness.js';

interface Item extends Doc {
  team: string | null;
  size: number;
  active: boolean;
  meta: { region: string };
  note?: string;
}

const TEAMS = ['red', 'blue', 'green', null];

function items(count: number): Item[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `item-${String(i).padStart(3, '0')}`,
    team: TEAMS[(i * 7) % TEAMS.length],
    size: (i * 37) % 11,
    active: i % 3 === 0,
    meta: { region: i % 2 === 0 ? 'eu' : 'us' },
    ...(i % 5 === 0 ? { note: `n${i}` } : {}),
  }));
}

/** Reference order: nulls first ascending (as SQLite and MongoDB), id as the last tie-breaker. */
function referenceSort(docs: Item[], sort: SortSpec): Item[] {
  const keys = Object.entries(sort);
  const lastDirection = keys.length ? keys[keys.length - 1][1] : 1;
  const value = (d: Item, path: string): unknown =>
    path.split('.').reduce<unknown>((v, p) => (v as Record<string, unknown>)?.[p], d) ?? null;
  const compare = (a: unknown, b: unknown): number => {
    if (a === b) return 0;
    if (a === null) return -1;
    if (b === null) return 1;
    const ab = typeof a === 'boolean' ? Number(a) : a;
    const bb = typeof b === 'boolean' ? Number(b) : b;
    if (typeof ab !== typeof bb) return typeof ab === 'number' ? -1 : 1;
    return (ab as number) < (bb as number) ? -1 : (ab as number) > (bb as number) ? 1 : 0;
  };
  return [...docs].sort((a, b) => {
    for (const [path, dir] of keys) {
      const c = compare(value(a, path), value(b, path));
      if (c !== 0) return c * dir;
    }
    return compare(a.id, b.id) * lastDirection;
  });
}

export function describeReadStoreContract(
  adapterName: string,
  createHarness: () => Promise<StoreHarness<ReadStore>>,
): void {
  describe(`ReadStore contract: ${adapterName}`, () => {
    let harness: StoreHarness<ReadStore>;
    let store: ReadStore;
    const all = items(60);

    beforeEach(async () => {
      harness = await createHarness();
      store = harness.store;
      await store.ensureCollection({
        name: 'items',
        indexes: [{ fields: ['team', 'size'] }, { fields: ['meta.region'] }],
      });
      const coll = store.collection<Item>('items');
      for (const item of all) await coll.put(item);
    });
    afterEach(async () => {
      await harness.dispose();
    });

    it('gets, replaces and deletes by id', async () => {
      const coll = store.collection<Item>('items');
      expect(await coll.get('item-001')).toEqual(all[1]);
      await coll.put({ ...all[1], size: 99 });
      expect((await coll.get('item-001'))?.size).toBe(99);
      await coll.delete('item-001');
      expect(await coll.get('item-001')).toBeNull();
      expect(await coll.get('nope')).toBeNull();
    });

    it('filters by equality, null, boolean and dotted paths', async () => {
      const coll = store.collection<Item>('items');
      const byTeam = await coll.find({ team: 'red' }, { limit: 1000 });
      expect(byTeam.items.map((d) => d.id)).toEqual(
        all.filter((d) => d.team === 'red').map((d) => d.id),
      );
      const noTeam = await coll.find({ team: null }, { limit: 1000 });
      expect(noTeam.items.length).toBe(all.filter((d) => d.team === null).length);
      const active = await coll.find({ active: true, 'meta.region': 'eu' }, { limit: 1000 });
      expect(active.items.map((d) => d.id)).toEqual(
        all.filter((d) => d.active && d.meta.region === 'eu').map((d) => d.id),
      );
      const noNote = await coll.count({ note: null });
      expect(noNote).toBe(all.filter((d) => d.note === undefined).length);
    });

    it('filters with $in and ranges', async () => {
      const coll = store.collection<Item>('items');
      const some = await coll.find({ team: { $in: ['red', null] } }, { limit: 1000 });
      expect(some.items.length).toBe(all.filter((d) => d.team === 'red' || d.team === null).length);
      const mid = await coll.find({ size: { $gte: 3, $lt: 7 } }, { limit: 1000 });
      expect(mid.items.map((d) => d.id)).toEqual(
        all.filter((d) => d.size >= 3 && d.size < 7).map((d) => d.id),
      );
      const ids = await coll.find({ id: { $gt: 'item-050' } }, { limit: 1000 });
      expect(ids.items.length).toBe(9);
      expect(await coll.count({ size: { $gt: 5, $lte: 8 }, team: 'blue' })).toBe(
        all.filter((d) => d.size > 5 && d.size <= 8 && d.team === 'blue').length,
      );
      expect((await coll.find({ team: { $in: [] } })).items).toEqual([]);
    });

    const sorts: SortSpec[] = [
      {},
      { size: 1 },
      { size: -1 },
      { team: 1, size: -1 },
      { team: -1 },
      { active: -1, 'meta.region': 1 },
      { id: -1 },
    ];
    for (const sort of sorts) {
      it(`pages through every match exactly once in order ${JSON.stringify(sort)}`, async () => {
        const coll = store.collection<Item>('items');
        const filter = { size: { $gte: 1 } };
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await coll.find(filter, { sort, limit: 7, cursor });
          seen.push(...page.items.map((d) => d.id));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        const expected = referenceSort(
          all.filter((d) => d.size >= 1),
          sort,
        ).map((d) => d.id);
        expect(seen).toEqual(expected);
      });
    }

    it('says there is no next page when the last page is full', async () => {
      const coll = store.collection<Item>('items');
      const page = await coll.find({}, { limit: 60 });
      expect(page.items).toHaveLength(60);
      expect(page.nextCursor).toBeNull();
    });

    it('refuses bad limits, cursors, operators and field names', async () => {
      const coll = store.collection<Item>('items');
      await expect(coll.find({}, { limit: 0 })).rejects.toBeInstanceOf(InvalidQueryError);
      await expect(coll.find({}, { limit: 1001 })).rejects.toBeInstanceOf(InvalidQueryError);
      await expect(coll.find({}, { cursor: 'garbage!' })).rejects.toBeInstanceOf(InvalidQueryError);
      const otherShape = (await coll.find({}, { sort: { size: 1 }, limit: 1 })).nextCursor;
      await expect(coll.find({}, { cursor: otherShape ?? '' })).rejects.toBeInstanceOf(
        InvalidQueryError,
      );
      await expect(coll.find({ size: { $regex: 'x' } as never })).rejects.toBeInstanceOf(
        InvalidQueryError,
      );
      await expect(coll.find({ "x') OR 1=1 --": 1 })).rejects.toBeInstanceOf(InvalidQueryError);
      await expect(coll.find({ team: { a: 1 } as never })).rejects.toBeInstanceOf(
        InvalidQueryError,
      );
    });

    it('reads an undeclared collection as empty and refuses to write it', async () => {
      const coll = store.collection('ghosts');
      expect(await coll.get('x')).toBeNull();
      expect((await coll.find()).items).toEqual([]);
      await expect(coll.put({ id: 'x' })).rejects.toBeInstanceOf(InvalidQueryError);
    });

    it('commits a transaction all-or-nothing', async () => {
      await expect(
        store.transaction(async (session) => {
          await session.collection('items').put({ ...all[0], size: 1234 });
          await session.collection('items').delete('item-002');
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const coll = store.collection<Item>('items');
      expect((await coll.get('item-000'))?.size).toBe(all[0].size);
      expect(await coll.get('item-002')).not.toBeNull();
      const result = await store.transaction(async (session) => {
        await session.collection('items').put({ ...all[0], size: 1234 });
        return (await session.collection<Item>('items').get('item-000'))?.size;
      });
      expect(result).toBe(1234);
      expect((await coll.get('item-000'))?.size).toBe(1234);
    });

    it('clears a collection and keeps documents across a reopen', async () => {
      store = await harness.reopen();
      expect(await store.collection('items').count()).toBe(60);
      await store.collection('items').clear();
      expect(await store.collection('items').count()).toBe(0);
    });

    it('declares collections idempotently and reports readiness', async () => {
      await store.ensureCollection({ name: 'items', indexes: [{ fields: ['team', 'size'] }] });
      expect(await store.isReady()).toBe(true);
    });
  });
}
