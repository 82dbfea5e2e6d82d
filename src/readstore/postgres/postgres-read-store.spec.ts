import { describe, expect, it } from '@jest/globals';
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
