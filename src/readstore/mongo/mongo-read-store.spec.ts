import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { describeReadStoreContract } from '../testing/read-store.contract-suite.js';
import { databaseOf, MongoReadStore } from './mongo-read-store.js';

const url = process.env.SLIPWAY_MONGODB_URL;

describe('MongoReadStore without a server', () => {
  it('takes the database from the URL, or slipway', () => {
    expect(databaseOf('mongodb://db:27017/analytics?replicaSet=rs0')).toBe('analytics');
    expect(databaseOf('mongodb://a:1,b:2/')).toBe('slipway');
    expect(databaseOf('mongodb+srv://cluster.example.net/rm')).toBe('rm');
    expect(databaseOf('mongodb://db:27017')).toBe('slipway');
  });
});

if (url) {
  // One database per test on the shared server, dropped afterwards.
  describeReadStoreContract('MongoDB', async () => {
    const database = `slipway_test_${randomUUID().slice(0, 8)}`;
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
  });
} else {
  process.stderr.write('ReadStore contract on MongoDB: skipped, SLIPWAY_MONGODB_URL is not set\n');
  describe('ReadStore contract: MongoDB', () => {
    it.skip('skipped: SLIPWAY_MONGODB_URL is not set (mongodb://host:27017/?replicaSet=rs0)', () => {});
  });
}
