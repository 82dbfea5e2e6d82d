import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { EventStore, RecordedEvent } from '../event-store.port.js';
import { WrongExpectedRevisionError } from '../wrong-expected-revision.error.js';
import { testEvent, testMetadata } from './test-events.js';
import type { StoreHarness } from '../../common/testing/store-harness.js';

/**
 * The behaviour every EventStore adapter must have. Each adapter's spec calls this with a
 * factory that gives a fresh, empty store.
 */
export function describeEventStoreContract(
  adapterName: string,
  createHarness: () => Promise<StoreHarness<EventStore>>,
): void {
  describe(`EventStore contract: ${adapterName}`, () => {
    let harness: StoreHarness<EventStore>;
    let store: EventStore;

    beforeEach(async () => {
      harness = await createHarness();
      store = harness.store;
    });
    afterEach(async () => {
      await harness.dispose();
    });

    it('appends to a new stream with no_stream and numbers revisions from 0', async () => {
      const result = await store.append('order-1', [testEvent('A'), testEvent('B')], 'no_stream');
      expect(result.nextExpectedRevision).toBe(1n);
      expect(result.lastPosition > result.firstPosition).toBe(true);
      const events = await store.readStream('order-1');
      expect(events.map((e) => [e.type, e.revision])).toEqual([
        ['A', 0n],
        ['B', 1n],
      ]);
    });

    it('records id, stream, schema version, time, data and metadata', async () => {
      const id = randomUUID();
      const before = Date.now();
      await store.append(
        's-1',
        [{ ...testEvent('Happened', { n: 1, nested: { ok: true } }), id }],
        'any',
      );
      const [event] = await store.readStream('s-1');
      expect(event.id).toBe(id);
      expect(event.stream).toBe('s-1');
      expect(event.schemaVersion).toBe(1);
      expect(event.data).toEqual({ n: 1, nested: { ok: true } });
      expect(event.metadata).toEqual(testMetadata);
      expect(Date.parse(event.recordedAt)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('keeps the time a migration brings from the source store, and refuses a malformed one', async () => {
      const recordedAt = '2024-02-29T23:59:59.123Z';
      await store.append('s-1', [{ ...testEvent('Copied'), recordedAt }], 'no_stream');
      expect((await store.readStream('s-1'))[0].recordedAt).toBe(recordedAt);
      for (const bad of ['yesterday', '2024-02-30T00:00:00Z', '']) {
        await expect(
          store.append('s-2', [{ ...testEvent('Copied'), recordedAt: bad }], 'any'),
        ).rejects.toThrow(/recordedAt/);
      }
      expect(await store.readStream('s-2')).toEqual([]);
    });

    it('generates a UUID when the event has no id', async () => {
      await store.append('s-1', [testEvent('A')], 'any');
      const [event] = await store.readStream('s-1');
      expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('accepts an exact expected revision and refuses a stale one without writing', async () => {
      await store.append('s-1', [testEvent('A')], 'no_stream');
      await store.append('s-1', [testEvent('B')], 0n);
      await expect(store.append('s-1', [testEvent('C')], 0n)).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      expect((await store.readStream('s-1')).map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('refuses no_stream on an existing stream and stream_exists on a missing one', async () => {
      await store.append('s-1', [testEvent('A')], 'no_stream');
      await expect(store.append('s-1', [testEvent('B')], 'no_stream')).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      await expect(store.append('s-2', [testEvent('B')], 'stream_exists')).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await store.append('s-1', [testEvent('C')], 'stream_exists');
      await store.append('s-3', [testEvent('D')], 'any');
      expect((await store.readStream('s-1')).length).toBe(2);
      expect((await store.readStream('s-2')).length).toBe(0);
    });

    it('writes a multi-event append all-or-nothing', async () => {
      const duplicate = randomUUID();
      await store.append('s-1', [{ ...testEvent('A'), id: duplicate }], 'no_stream');
      const batch = [testEvent('B'), testEvent('C'), { ...testEvent('D'), id: duplicate }];
      await expect(store.append('s-2', batch, 'any')).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await store.readStream('s-2')).toEqual([]);
      expect((await store.readAll(0n, 100)).map((e) => e.type)).toEqual(['A']);
    });

    it('refuses malformed appends before writing anything', async () => {
      await expect(store.append('', [testEvent('A')], 'any')).rejects.toThrow(/stream name/);
      await expect(store.append('s-1', [], 'any')).rejects.toThrow(/1-/);
      await expect(store.append('s-1', [testEvent('A')], -1n)).rejects.toThrow(/expected/);
      await expect(
        store.append('s-1', [{ ...testEvent('A'), schemaVersion: 0 }], 'any'),
      ).rejects.toThrow(/schemaVersion/);
      expect(await store.headPosition()).toBe(0n);
    });

    it('reads a stream from a revision with a limit', async () => {
      await store.append(
        's-1',
        ['A', 'B', 'C', 'D'].map((t) => testEvent(t)),
        'no_stream',
      );
      const page = await store.readStream('s-1', { fromRevision: 1n, limit: 2 });
      expect(page.map((e) => e.type)).toEqual(['B', 'C']);
      expect(await store.readStream('missing')).toEqual([]);
    });

    it('reads all streams in global order from an inclusive position', async () => {
      await store.append('a', [testEvent('A1')], 'any');
      await store.append('b', [testEvent('B1'), testEvent('B2')], 'any');
      await store.append('a', [testEvent('A2')], 'any');
      const all = await store.readAll(0n, 100);
      expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'B2', 'A2']);
      assertIncreasing(all);
      const tail = await store.readAll(all[2].position, 100);
      expect(tail.map((e) => e.type)).toEqual(['B2', 'A2']);
      const limited = await store.readAll(0n, 2);
      expect(limited.map((e) => e.type)).toEqual(['A1', 'B1']);
      expect(await store.headPosition()).toBe(all[3].position);
    });

    it('lets exactly one of many concurrent writers win the same expected revision', async () => {
      await store.append('s-1', [testEvent('Start')], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.append('s-1', [testEvent(`W${i}`)], 0n)),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream('s-1')).toHaveLength(2);
    });

    it('lands every one of many concurrent appends to different streams', async () => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 25 }, (_, i) =>
          store.append(`m-${i}`, [testEvent(`M${i}a`), testEvent(`M${i}b`)], 'no_stream'),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(25);
      const all = await store.readAll(0n, 100);
      expect(all).toHaveLength(50);
      assertIncreasing(all);
      for (let i = 0; i < 25; i++) {
        const events = await store.readStream(`m-${i}`);
        expect(events.map((e) => [e.type, e.revision])).toEqual([
          [`M${i}a`, 0n],
          [`M${i}b`, 1n],
        ]);
      }
    });

    it('does not lose the other concurrent appends when some of them fail', async () => {
      const duplicate = randomUUID();
      await store.append('s-1', [{ ...testEvent('A'), id: duplicate }], 'no_stream');
      const outcomes = await Promise.allSettled([
        store.append('ok-1', [testEvent('K1')], 'no_stream'),
        store.append('s-1', [testEvent('Stale')], 5n),
        store.append('ok-2', [testEvent('K2'), testEvent('K3')], 'any'),
        store.append('dup', [testEvent('D1'), { ...testEvent('D2'), id: duplicate }], 'any'),
        store.append('s-1', [testEvent('B')], 0n),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
      expect(await store.readStream('dup')).toEqual([]);
      expect((await store.readStream('s-1')).map((e) => e.type)).toEqual(['A', 'B']);
      const all = await store.readAll(0n, 100);
      expect(all.map((e) => e.type).sort()).toEqual(['A', 'B', 'K1', 'K2', 'K3']);
      assertIncreasing(all);
    });

    it('keeps events across a reopen', async () => {
      await store.append('s-1', [testEvent('A'), testEvent('B')], 'no_stream');
      store = await harness.reopen();
      expect((await store.readStream('s-1')).map((e) => e.type)).toEqual(['A', 'B']);
      await store.append('s-1', [testEvent('C')], 1n);
      expect((await store.readStream('s-1')).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    });

    it('subscribes: catches up, then delivers new events in order, then stops', async () => {
      await store.append('a', [testEvent('E1'), testEvent('E2')], 'any');
      const seen: string[] = [];
      let resolveFour: () => void = () => undefined;
      const four = new Promise<void>((resolve) => (resolveFour = resolve));
      const subscription = store.subscribe(0n, async (event) => {
        await new Promise((r) => setTimeout(r, 1));
        seen.push(event.type);
        if (seen.length === 4) resolveFour();
      });
      await store.append('b', [testEvent('E3')], 'any');
      await store.append('a', [testEvent('E4')], 'any');
      await four;
      await subscription.stop();
      await store.append('a', [testEvent('E5')], 'any');
      await new Promise((r) => setTimeout(r, 50));
      expect(seen).toEqual(['E1', 'E2', 'E3', 'E4']);
    });

    it('subscribes from a later position', async () => {
      await store.append('a', [testEvent('E1'), testEvent('E2'), testEvent('E3')], 'any');
      const all = await store.readAll(0n, 10);
      const seen: string[] = [];
      const done = new Promise<void>((resolve) => {
        const sub = store.subscribe(all[1].position, (event) => {
          seen.push(event.type);
          if (seen.length === 2) void sub.stop().then(resolve);
        });
      });
      await done;
      expect(seen).toEqual(['E2', 'E3']);
    });

    it('reports readiness', async () => {
      expect(await store.isReady()).toBe(true);
    });
  });
}

function assertIncreasing(events: RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    expect(events[i].position > events[i - 1].position).toBe(true);
  }
}
