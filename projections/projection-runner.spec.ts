import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { EventStore } from '../src/eventstore/event-store.port.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { testEvent } from '../src/eventstore/testing/test-events.js';
import type { Doc, ReadStore } from '../src/readstore/read-store.port.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import { projectInMemory } from './project-in-memory.js';
import { CHECKPOINT_COLLECTION, type Projection } from './projection.js';
import { ProjectionRunner } from './projection-runner.js';
import { flakyProjection } from './testing/flaky-projection.js';
import { appendCounts, counterProjection, type CounterDoc } from './testing/counter-projection.js';

describe('ProjectionRunner', () => {
  let dir: string;
  let events: EventStore;
  let store: ReadStore;
  const runners: ProjectionRunner[] = [];

  const openStore = () => new SqliteReadStore(join(dir, 'read.sqlite'));
  const runner = (projections: Projection[], options = {}) => {
    const r = new ProjectionRunner(events, store, projections, {
      pollIntervalMs: 20,
      retryDelayMs: 10,
      ...options,
    });
    runners.push(r);
    return r;
  };
  const count = (key: string, by: number) => testEvent('Counted', { key, by });
  const docs = async (): Promise<Doc[]> =>
    (await store.collection('counters').find({}, { limit: 1000 })).items;
  const strip = (list: Doc[]) => list.map(({ _position: _p, ...rest }) => rest);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-proj-'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
    store = openStore();
  });
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
    await events.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const appendMany = (n: number) => appendCounts(events, n);

  it('builds the same read model incrementally as from scratch, and as the pure fold', async () => {
    const incremental = runner([counterProjection()], { batchSize: 7 });
    await incremental.start();
    let last = 0n;
    for (let round = 0; round < 5; round++) {
      last = await appendMany(20);
      await incremental.waitFor(last);
    }
    const built = await docs();
    await incremental.stop();

    await store.close();
    rmSync(join(dir, 'read.sqlite'));
    store = openStore();
    const scratch = runner([counterProjection()], { batchSize: 1000 });
    await scratch.start();
    await scratch.waitFor(last);
    expect(await docs()).toEqual(built);

    const all = await events.readAll(0n, 10_000);
    const folded = projectInMemory(counterProjection(), all);
    expect(strip(built)).toEqual(
      Object.values(folded.counters).sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  });

  it('tells the store while it is far behind, and returns the borrowed log once caught up', async () => {
    const hints: boolean[] = [];
    const sqlite = store as SqliteReadStore;
    const hint = sqlite.catchingUp.bind(sqlite);
    sqlite.catchingUp = async (behind) => {
      hints.push(behind);
      await hint(behind);
    };
    const last = await appendMany(60);
    await runner([counterProjection()], { batchSize: 10 }).start();
    for (let i = 0; i < 200 && hints.at(-1) !== false; i++) await setTimeout(10);
    expect(hints).toEqual([true, false]);
    const folded = projectInMemory(counterProjection(), await events.readAll(0n, 10_000));
    expect(strip(await docs())).toEqual(
      Object.values(folded.counters).sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(await events.headPosition()).toBe(last);
    // Caught up: the write-ahead log was checkpointed into the database and truncated.
    expect(statSync(join(dir, 'read.sqlite-wal')).size).toBe(0);
  });

  it('answers a read right after the write once waitFor resolves', async () => {
    const r = runner([counterProjection()], { pollIntervalMs: 60_000 });
    await r.start();
    for (let i = 1; i <= 20; i++) {
      const { lastPosition } = await events.append('c', [count('fast', 1)], 'any');
      await r.waitFor(lastPosition);
      const doc = await store.collection<CounterDoc>('counters').get('fast');
      expect(doc?.count).toBe(i);
    }
  });

  it('names the projections an event type affects, and a writer waits only for those', async () => {
    const everything: Projection = {
      name: 'everything',
      version: 1,
      collections: [{ name: 'everything' }],
      handlers: {
        '*': [
          { collection: 'everything', documentId: (e) => e.id, evolve: (_d, e) => ({ id: e.id }) },
        ],
      },
    };
    // Fails on every event it handles, so it never catches up.
    const stuck: Projection = {
      name: 'stuck',
      version: 1,
      collections: [{ name: 'stuck' }],
      handlers: {
        Other: [
          {
            collection: 'stuck',
            documentId: () => 'x',
            evolve: () => {
              throw new Error('cannot apply');
            },
          },
        ],
      },
    };
    const r = runner([counterProjection(), everything, stuck], { waitTimeoutMs: 300 });
    expect(r.affectedBy(['Counted']).sort()).toEqual(['counters', 'everything']);
    expect(r.affectedBy(['Other', 'Reset']).sort()).toEqual(['counters', 'everything', 'stuck']);
    expect(r.affectedBy(['Unknown'])).toEqual(['everything']);
    await r.start();
    await events.append('o', [testEvent('Other')], 'any');
    const { lastPosition } = await events.append('c', [count('k', 1)], 'any');
    await r.waitFor(lastPosition, r.affectedBy(['Counted']));
    expect((await store.collection<CounterDoc>('counters').get('k'))?.count).toBe(1);
    await expect(r.waitFor(lastPosition)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('resumes from its checkpoint after a restart without applying anything twice', async () => {
    const first = runner([counterProjection()]);
    await first.start();
    await first.waitFor(await appendMany(10));
    await first.stop();
    const lastBefore = await events.headPosition();
    const moreEnd = (await events.append('c-k1', [count('k1', 1000)], 'any')).lastPosition;
    const second = runner([counterProjection()]);
    await second.start();
    await second.waitFor(moreEnd);
    const all = await events.readAll(0n, 10_000);
    expect(strip(await docs())).toEqual(
      Object.values(projectInMemory(counterProjection(), all).counters),
    );
    expect(lastBefore < moreEnd).toBe(true);
  });

  it('changes nothing when events are applied again', async () => {
    const r = runner([counterProjection()]);
    await r.start();
    const last = await appendMany(15);
    await r.waitFor(last);
    const before = await docs();
    await r.stop();
    // Roll the checkpoint back without touching the documents: a replay must be a no-op.
    await store.collection(CHECKPOINT_COLLECTION).put({
      id: 'counters',
      version: 1,
      position: 0,
      updatedAt: new Date().toISOString(),
    });
    const again = runner([counterProjection()]);
    await again.start();
    await again.waitFor(last);
    expect(await docs()).toEqual(before);
  });

  it('rebuilds from position 0 when the projection version changes', async () => {
    const v1 = runner([counterProjection(1, 1)]);
    await v1.start();
    await v1.waitFor(
      (await events.append('c', [count('a', 2), count('b', 3)], 'any')).lastPosition,
    );
    await v1.stop();
    const v2 = runner([counterProjection(2, 10)]);
    await v2.start();
    await v2.waitFor(await events.headPosition());
    const byId = Object.fromEntries((await docs()).map((d) => [d.id, d.total]));
    expect(byId).toEqual({ a: 20, b: 30 });
    expect(v2.status()[0]).toMatchObject({ name: 'counters', version: 2, status: 'running' });
  });

  it('keeps other projections going while one fails, and retries the failing one', async () => {
    const flaky = flakyProjection(2);
    const errors: string[] = [];
    const r = runner([counterProjection(), flaky], {
      onError: (name: string) => errors.push(name),
    });
    await r.start();
    const { lastPosition } = await events.append('c', [count('x', 1)], 'any');
    await r.waitFor(lastPosition, ['counters']);
    await r.waitFor(lastPosition);
    expect(errors).toEqual(['flaky', 'flaky']);
    expect((await store.collection('flaky').get('only'))?.seen).toBe(1);
    expect(r.status().every((s) => s.status === 'running')).toBe(true);
  });

  it('gives up waiting with SERVICE_UNAVAILABLE when a projection cannot catch up', async () => {
    const broken: Projection = {
      name: 'broken',
      version: 1,
      collections: [{ name: 'broken' }],
      handlers: {
        Counted: [
          {
            collection: 'broken',
            documentId: () => 'x',
            evolve: () => {
              throw new Error('always');
            },
          },
        ],
      },
    };
    const r = runner([broken], { waitTimeoutMs: 100, onError: () => undefined });
    await r.start();
    const { lastPosition } = await events.append('c', [count('x', 1)], 'any');
    await expect(r.waitFor(lastPosition)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(r.status()[0]).toMatchObject({ status: 'failing', lastError: 'always' });
  });

  it('refuses two projections writing one collection', () => {
    const a = counterProjection();
    expect(() => runner([a, { ...a, name: 'other' }])).toThrow(/belongs to/);
  });
});
