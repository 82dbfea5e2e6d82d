import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ReadStore } from './read-store.port.js';
import { ReadThrough } from './read-through.js';
import { SqliteReadStore } from './sqlite/sqlite-read-store.js';

interface Credential {
  [key: string]: unknown;
  id: string;
  revoked: boolean;
}

/** Another connection's commit is looked for once per turn of the event loop. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('documents kept until the store changes', () => {
  let dir: string;
  let store: SqliteReadStore;
  let other: SqliteReadStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-read-through-'));
    store = new SqliteReadStore(join(dir, 'read.sqlite'));
    await store.ensureCollection({ name: 'credentials' });
    await store.collection<Credential>('credentials').put({ id: 'c1', revoked: false });
    // Another process's connection to the same file, as a second replica would have.
    other = new SqliteReadStore(join(dir, 'read.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a repeated read without the store, until a commit from here or elsewhere', async () => {
    const kept = new ReadThrough(store);
    let loads = 0;
    const read = () =>
      kept.read('c1', () => {
        loads++;
        return store.collection<Credential>('credentials').get('c1');
      });
    expect(await read()).toEqual({ id: 'c1', revoked: false });
    expect(await read()).toEqual({ id: 'c1', revoked: false });
    expect(loads).toBe(1);
    // This process's own writer commits: read afresh.
    await store.collection<Credential>('credentials').put({ id: 'c1', revoked: true });
    expect(await read()).toEqual({ id: 'c1', revoked: true });
    expect(loads).toBe(2);
    // Another connection commits: read afresh from the next turn of the event loop on.
    await other.collection<Credential>('credentials').put({ id: 'c1', revoked: false });
    await nextTurn();
    expect(await read()).toEqual({ id: 'c1', revoked: false });
    expect(loads).toBe(3);
    // Its own bulk writer (a thread of its own) commits: read afresh once the submission is in.
    const bulk = store.bulkWriter();
    await bulk.submit([{ collection: 'credentials', put: { id: 'c1', revoked: true } }]);
    expect(await read()).toEqual({ id: 'c1', revoked: true });
    expect(loads).toBe(4);
    await bulk.close();
  });

  it('keeps nothing read across a commit that landed while it was read', async () => {
    const kept = new ReadThrough(store);
    const stale = await kept.read('c1', async () => {
      const value = await store.collection<Credential>('credentials').get('c1');
      await other.collection<Credential>('credentials').put({ id: 'c1', revoked: true });
      return value;
    });
    expect(stale).toEqual({ id: 'c1', revoked: false });
    await nextTurn();
    const fresh = await kept.read('c1', () =>
      store.collection<Credential>('credentials').get('c1'),
    );
    expect(fresh).toEqual({ id: 'c1', revoked: true });
  });

  it('keeps nothing for a store without a change mark', async () => {
    const kept = new ReadThrough({} as ReadStore);
    let loads = 0;
    const load = async () => ++loads;
    await kept.read('k', load);
    await kept.read('k', load);
    expect(loads).toBe(2);
  });
});
