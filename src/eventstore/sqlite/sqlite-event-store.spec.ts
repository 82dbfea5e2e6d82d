import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { fileStoreHarness } from '../../common/testing/store-harness.js';
import { describeEventStoreContract } from '../testing/event-store.contract-suite.js';
import { testEvent } from '../testing/test-events.js';
import { SqliteEventStore } from './sqlite-event-store.js';

function tempFile(): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-es-'));
  return { dir, file: join(dir, 'events.sqlite') };
}

describeEventStoreContract('sqlite', async () =>
  fileStoreHarness('events.sqlite', (file) => new SqliteEventStore(file, { pollIntervalMs: 20 })),
);

describe('SqliteEventStore specifics', () => {
  it('runs with WAL and synchronous=FULL', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore(file);
    await store.append('s', [testEvent('A')], 'any');
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits appends made together in one transaction, and each alone when they are not', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore(file);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append(`g-${i % 3}`, [testEvent('G')], 'any')),
    );
    expect(store.committedTransactions).toBe(1);
    await store.append('g-0', [testEvent('H')], 'any');
    await store.append('g-1', [testEvent('H')], 'any');
    expect(store.committedTransactions).toBe(3);
    expect(await store.headPosition()).toBe(22n);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes appends still queued when it is closed', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore(file);
    const pending = store.append('late', [testEvent('L')], 'no_stream');
    await store.close();
    await pending;
    const reopened = new SqliteEventStore(file);
    expect((await reopened.readStream('late')).map((e) => e.type)).toEqual(['L']);
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('assigns dense global positions starting at 1', async () => {
    const { dir, file } = tempFile();
    const store = new SqliteEventStore(file);
    await store.append('a', [testEvent('A'), testEvent('B')], 'any');
    await expect(store.append('a', [testEvent('X')], 'no_stream')).rejects.toThrow();
    await store.append('b', [testEvent('C')], 'any');
    const positions = (await store.readAll(0n, 10)).map((e) => e.position);
    expect(positions).toEqual([1n, 2n, 3n]);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers to a subscriber appends made by another connection to the same file', async () => {
    const { dir, file } = tempFile();
    const reader = new SqliteEventStore(file, { pollIntervalMs: 10 });
    const writer = new SqliteEventStore(file);
    const got = new Promise<string>((resolve) => {
      const sub = reader.subscribe(1n, (event) => {
        void sub.stop();
        resolve(event.type);
      });
    });
    await writer.append('s', [testEvent('FromElsewhere')], 'any');
    expect(await got).toBe('FromElsewhere');
    await writer.close();
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("wakes a subscriber for another connection's append without waiting for its poll", async () => {
    const { dir, file } = tempFile();
    // A poll longer than the test's timeout: only the file's change notification can deliver.
    const reader = new SqliteEventStore(file, { pollIntervalMs: 600_000 });
    const writer = new SqliteEventStore(file, { watch: false });
    let heard = 0;
    const stop = reader.onAppended(() => (heard += 1));
    const got = new Promise<bigint>((resolve) => {
      const sub = reader.subscribe(1n, (event) => {
        void sub.stop();
        resolve(event.position);
      });
    });
    // Let the subscription read the empty store and wait.
    await new Promise((r) => setTimeout(r, 50));
    await writer.append('s', [testEvent('FromElsewhere')], 'any');
    expect(await got).toBe(1n);
    expect(heard).toBeGreaterThan(0);
    stop();
    await writer.close();
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('polls every 2 s while notifications work, every 250 ms without them', async () => {
    const { dir, file } = tempFile();
    const watched = new SqliteEventStore(file);
    const unwatched = new SqliteEventStore(file, { watch: false });
    const interval = (s: SqliteEventStore) =>
      (s as unknown as { pollIntervalMs: number }).pollIntervalMs;
    expect([interval(watched), interval(unwatched)]).toEqual([2000, 250]);
    await watched.close();
    await unwatched.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
