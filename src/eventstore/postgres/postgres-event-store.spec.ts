import { afterEach, describe, expect, it } from '@jest/globals';
import { postgresClusterForSuite } from '../../common/testing/postgres-cluster-suite.js';
import { databaseStoreHarness } from '../../common/testing/store-harness.js';
import type { RecordedEvent } from '../event-store.port.js';
import { describeEventStoreContract } from '../testing/event-store.contract-suite.js';
import { testEvent } from '../testing/test-events.js';
import { PostgresEventStore } from './postgres-event-store.js';

const cluster = postgresClusterForSuite();

describeEventStoreContract('PostgreSQL', async () =>
  databaseStoreHarness(await cluster().createDatabase(), (url) => PostgresEventStore.connect(url)),
);

/** Until `check` holds, or 10 s. */
async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the PostgreSQL event store shared by several processes', () => {
  const open: PostgresEventStore[] = [];
  const connect = async (url: string, pollIntervalMs = 60_000) => {
    const store = await PostgresEventStore.connect(url, { pollIntervalMs });
    open.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('gives positions without gaps in commit order, so a subscriber skips nothing', async () => {
    const url = await cluster().createDatabase();
    const writers = [await connect(url), await connect(url), await connect(url)];
    const reader = await connect(url, 5);
    const seen: bigint[] = [];
    const subscription = reader.subscribe(1n, (event) => {
      seen.push(event.position);
    });
    // Three processes, each with appends in flight at once (their own group commits).
    const appends = writers.flatMap((writer, w) =>
      Array.from({ length: 60 }, (_, i) =>
        writer.append(`s-${w}-${i % 7}`, [testEvent('A'), testEvent('B')], 'any'),
      ),
    );
    const results = await Promise.all(appends);
    await eventually(() => seen.length === 360);
    await subscription.stop();
    expect(seen).toEqual(Array.from({ length: 360 }, (_, i) => BigInt(i + 1)));
    const positions = results.flatMap((r) => [r.firstPosition, r.lastPosition]);
    expect(new Set(positions).size).toBe(positions.length);
  });

  it('lets one writer of many processes take a stream revision, the others refused', async () => {
    const url = await cluster().createDatabase();
    const writers = await Promise.all(Array.from({ length: 4 }, () => connect(url)));
    await writers[0].append('order-1', [testEvent('Opened')], 'no_stream');
    const outcomes = await Promise.allSettled(
      writers.map((writer) => writer.append('order-1', [testEvent('Paid')], 0n)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const refused of outcomes.filter((o) => o.status === 'rejected'))
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
    expect((await writers[1].readStream('order-1')).map((e) => e.type)).toEqual(['Opened', 'Paid']);
  });

  it("wakes another process's subscription by notification, without waiting for its poll", async () => {
    const url = await cluster().createDatabase();
    const writer = await connect(url);
    const reader = await connect(url); // polls only once a minute
    const seen: RecordedEvent[] = [];
    const subscription = reader.subscribe(1n, (event) => {
      seen.push(event);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await writer.append('s-1', [testEvent('Woken')], 'no_stream');
    await eventually(() => seen.length === 1);
    await subscription.stop();
    expect(seen[0].type).toBe('Woken');
  });

  it('carries on after the server restarts: appends again, listens again', async () => {
    const url = await cluster().createDatabase();
    const writer = await connect(url);
    const reader = await connect(url);
    const seen: RecordedEvent[] = [];
    const subscription = reader.subscribe(1n, (event) => {
      seen.push(event);
    });
    await writer.append('s-1', [testEvent('Before')], 'no_stream');
    await eventually(() => seen.length === 1);
    await cluster().restart();
    // The pool's broken connections are dropped on first use; the caller may retry.
    await eventually(() => reader.connectionState === 'ready');
    let appended = false;
    for (let attempt = 0; attempt < 20 && !appended; attempt++) {
      appended = await writer.append('s-1', [testEvent('After')], 0n).then(
        () => true,
        () => false,
      );
    }
    expect(appended).toBe(true);
    await eventually(() => seen.length === 2);
    await subscription.stop();
    expect(seen.map((e) => e.type)).toEqual(['Before', 'After']);
    expect((await writer.readStream('s-1')).map((e) => e.revision)).toEqual([0n, 1n]);
  });
});
