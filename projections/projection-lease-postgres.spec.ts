import { describe, expect, it } from '@jest/globals';
import { postgresClusterForSuite } from '../src/common/testing/postgres-cluster-suite.js';
import type { Collection, Doc, ReadStoreSession } from '../src/readstore/read-store.port.js';
import { PostgresReadStore } from '../src/readstore/postgres/postgres-read-store.js';
import {
  LEASE_COLLECTION,
  LeaseLostError,
  ProjectionLeases,
  type LeaseDoc,
} from './projection-lease.js';

const cluster = postgresClusterForSuite();

/** A session whose writes wait for `gate`: the transaction has read, and not yet written. */
function pausedBeforeWriting(session: ReadStoreSession, gate: Promise<void>): ReadStoreSession {
  return {
    collection: <T extends Doc>(name: string): Collection<T> => {
      const inner = session.collection<T>(name);
      return {
        get: (id) => inner.get(id),
        find: (filter, options) => inner.find(filter, options),
        count: (filter) => inner.count(filter),
        put: async (doc) => {
          await gate;
          return inner.put(doc);
        },
        delete: (id) => inner.delete(id),
        clear: () => inner.clear(),
      };
    },
  };
}

describe('projection leases on PostgreSQL, replicas racing', () => {
  it('fences a holder whose lease is taken over between its read and its write', async () => {
    const url = await cluster().createDatabase();
    // Two replicas: two stores, two connection pools.
    const storeA = await PostgresReadStore.connect(url);
    const storeB = await PostgresReadStore.connect(url);
    let now = 1_000;
    const a = new ProjectionLeases(storeA, { holder: 'a', ttlMs: 100, now: () => now });
    const b = new ProjectionLeases(storeB, { holder: 'b', ttlMs: 100, now: () => now });
    try {
      await a.start();
      await b.start();
      expect(await a.refresh(['p'])).toEqual(new Set(['p']));
      now += 101; // a paused; its lease ran out
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let attempts = 0;
      // a's batch: the fence has read its lease (still a's) when b takes the lease over.
      const batch = storeA.transaction(async (session) => {
        attempts++;
        await a.fence(attempts === 1 ? pausedBeforeWriting(session, gate) : session, 'p');
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await b.refresh(['p'])).toEqual(new Set(['p']));
      release();
      await expect(batch).rejects.toBeInstanceOf(LeaseLostError);
      expect(attempts).toBe(2);
      const lease = await storeB.collection<LeaseDoc>(LEASE_COLLECTION).get('p');
      expect(lease).toMatchObject({ holder: 'b', epoch: 2 });
    } finally {
      await storeA.close();
      await storeB.close();
    }
  });

  it('gives an expired lease to one of two replicas taking it at once', async () => {
    const url = await cluster().createDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => PostgresReadStore.connect(url)));
    const now = () => 5_000;
    const replicas = stores.map(
      (store, i) => new ProjectionLeases(store, { holder: `r${i}`, now }),
    );
    try {
      for (const replica of replicas) await replica.start();
      const held = await Promise.all(replicas.map((r) => r.refresh(['p', 'q'])));
      for (const name of ['p', 'q']) expect(held.filter((h) => h.has(name))).toHaveLength(1);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
