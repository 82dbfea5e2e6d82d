import { describe, expect, it } from '@jest/globals';
import { ReadThrough } from '../read-through.js';
import { postgresClusterForSuite } from '../../common/testing/postgres-cluster-suite.js';
import { databaseStoreHarness } from '../../common/testing/store-harness.js';
import { describeReadStoreContract } from '../testing/read-store.contract-suite.js';
import { PostgresReadStore } from './postgres-read-store.js';

const cluster = postgresClusterForSuite();

describeReadStoreContract('PostgreSQL', async () =>
  databaseStoreHarness(await cluster().createDatabase(), (url) => PostgresReadStore.connect(url)),
);

describe('PostgreSQL read store, replicas starting together', () => {
  it('declares the same collections and indexes from several processes at once', async () => {
    const url = await cluster().createDatabase();
    const stores = await Promise.all([1, 2, 3, 4, 5].map(() => PostgresReadStore.connect(url)));
    try {
      const spec = {
        name: 'things',
        indexes: [{ fields: ['team', 'size'] }, { fields: ['meta.region'] }],
      };
      await Promise.all(stores.map((store) => store.ensureCollection(spec)));
      await stores[0].collection('things').put({ id: 'a', team: 'red' });
      expect(await stores[4].collection('things').count({ team: 'red' })).toBe(1);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});

describe('PostgreSQL read store, text jsonb cannot hold', () => {
  it('stores U+0000 as U+FFFD rather than refusing the document', async () => {
    const store = await PostgresReadStore.connect(await cluster().createDatabase());
    try {
      await store.ensureCollection({ name: 'lines' });
      const lines = store.collection('lines');
      await lines.put({ id: 'l1', text: 'before\u0000after', path: 'C:\\u0000dir' });
      expect(await lines.get('l1')).toEqual({
        id: 'l1',
        text: 'before\ufffdafter',
        path: 'C:\\u0000dir',
      });
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL read store, the change mark that lets readers keep documents', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('stays while nothing commits, and moves with another process’s commit from the next turn', async () => {
    const url = await cluster().createDatabase();
    const reader = await PostgresReadStore.connect(url);
    const writer = await PostgresReadStore.connect(url);
    try {
      await writer.ensureCollection({ name: 'things' });
      await reader.ensureCollection({ name: 'things' });
      const keeper = new ReadThrough(reader);
      let loads = 0;
      const load = () => {
        loads += 1;
        return reader.collection('things').get('a');
      };
      await nextTurn();
      expect(await keeper.read('a', load)).toBeNull();
      await nextTurn();
      // Nothing committed: the same mark, the kept answer, no query for the document.
      expect(await keeper.read('a', load)).toBeNull();
      expect(loads).toBe(1);
      await writer.collection('things').put({ id: 'a', n: 1 });
      await nextTurn();
      expect(await keeper.read('a', load)).toEqual({ id: 'a', n: 1 });
      await writer.collection('things').put({ id: 'a', n: 2 });
      await nextTurn();
      expect(await keeper.read('a', load)).toEqual({ id: 'a', n: 2 });
      expect(loads).toBe(3);
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
