import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import {
  LEASE_COLLECTION,
  LeaseLostError,
  ProjectionLeases,
  type LeaseDoc,
} from './projection-lease.js';

describe('ProjectionLeases', () => {
  let dir: string;
  let store: SqliteReadStore;
  let now = 1_000;
  const replica = (holder: string) =>
    new ProjectionLeases(store, { holder, ttlMs: 100, now: () => now });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-lease-'));
    store = new SqliteReadStore(join(dir, 'read.sqlite'));
    await replica('setup').start();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives each projection to one replica, which renews it', async () => {
    const a = replica('a');
    const b = replica('b');
    expect(await a.refresh(['p', 'q'])).toEqual(new Set(['p', 'q']));
    expect(await b.refresh(['p', 'q'])).toEqual(new Set());
    now += 90;
    expect(await a.refresh(['p'])).toEqual(new Set(['p']));
    now += 90;
    expect(await b.refresh(['p'])).toEqual(new Set());
    expect((await store.collection<LeaseDoc>(LEASE_COLLECTION).get('p'))?.epoch).toBe(1);
  });

  it('is taken over with a higher epoch once it expires, and fences the old holder', async () => {
    const a = replica('a');
    const b = replica('b');
    await a.refresh(['p']);
    now += 101; // a paused (a long GC, a frozen VM) and its lease ran out
    expect(await b.refresh(['p'])).toEqual(new Set(['p']));
    expect((await store.collection<LeaseDoc>(LEASE_COLLECTION).get('p'))?.epoch).toBe(2);
    // a wakes up still believing it holds p: its batch is refused inside the transaction.
    expect(a.holds('p')).toBe(true);
    await expect(store.transaction((s) => a.fence(s, 'p'))).rejects.toBeInstanceOf(LeaseLostError);
    expect(a.holds('p')).toBe(false);
    await store.transaction((s) => b.fence(s, 'p'));
    // ... and a's next refresh does not take it back while b renews.
    expect(await a.refresh(['p'])).toEqual(new Set());
  });

  it('hands over at once on release', async () => {
    const a = replica('a');
    await a.refresh(['p']);
    await a.release();
    expect(await replica('b').refresh(['p'])).toEqual(new Set(['p']));
  });

  it('is taken at once by a newer projection version, never again by an older one', async () => {
    // Given replica a holding p under version 1
    const a = replica('a');
    const b = replica('b');
    const v = (n: number) => new Map([['p', n]]);
    expect((await a.refreshVersions(['p'], v(1))).held).toEqual(new Set(['p']));
    // When b starts with version 2: it takes p before a's lease expires, with the epoch raised
    expect((await b.refreshVersions(['p'], v(2))).held).toEqual(new Set(['p']));
    expect(await store.collection<LeaseDoc>(LEASE_COLLECTION).get('p')).toMatchObject({
      holder: 'b',
      epoch: 2,
      version: 2,
    });
    // Then a is fenced out, and is told which version took it
    await expect(store.transaction((s) => a.fence(s, 'p'))).rejects.toBeInstanceOf(LeaseLostError);
    expect((await a.refreshVersions(['p'], v(1))).superseded).toEqual(new Map([['p', 2]]));
    expect(a.supersededBy('p')).toBe(2);
    // ... and does not take it back once it has expired or was released
    now += 1_000;
    expect((await a.refreshVersions(['p'], v(1))).held).toEqual(new Set());
    await b.release();
    expect((await a.refreshVersions(['p'], v(1))).held).toEqual(new Set());
    expect((await replica('c').refreshVersions(['p'], v(2))).held).toEqual(new Set(['p']));
  });
});
