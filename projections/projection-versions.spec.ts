import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { testEvent } from '../src/eventstore/testing/test-events.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import { projectInMemory } from './project-in-memory.js';
import { ProjectionLeases } from './projection-lease.js';
import { ProjectionRunner } from './projection-runner.js';
import { counterProjection, type CounterDoc } from './testing/counter-projection.js';

const TTL_MS = 150;

/**
 * A projection version change with several replicas on one data directory (the SQLite pair):
 * each replica is a runner of its own under leases. In one process they share the store
 * objects (the SQLite driver is synchronous: two write connections of one process would wait
 * on each other's open transaction); e2e/replicas.e2e.ts runs them as separate processes.
 */
describe('ProjectionRunner under leases, when a projection version changes', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  const running: ProjectionRunner[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-proj-versions-'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
    reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  });
  afterEach(async () => {
    for (const r of running.splice(0)) await r.stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A replica running `counters` at `version` (it multiplies by the version). */
  function replica(name: string, version: number) {
    const notices: string[] = [];
    const runner = new ProjectionRunner(events, reads, [counterProjection(version, version)], {
      pollIntervalMs: 20,
      retryDelayMs: 20,
      waitTimeoutMs: 5_000,
      leases: new ProjectionLeases(reads, { holder: name, ttlMs: TTL_MS }),
      onNotice: (_projection, message) => notices.push(message),
      onError: () => undefined,
    });
    running.push(runner);
    const append = async (key: string, by: number) =>
      (await events.append(`c-${key}`, [testEvent('Counted', { key, by })], 'any')).lastPosition;
    const doc = (key: string) => reads.collection<CounterDoc>('counters').get(key);
    return { runner, notices, append, doc };
  }

  async function until(check: () => boolean | Promise<boolean>): Promise<void> {
    for (let i = 0; i < 500 && !(await check()); i++) await setTimeout(10);
    expect(await check()).toBe(true);
  }

  it('is rebuilt once by the newer replica that takes the lease, and the old one stops', async () => {
    // Given a version 1 replica that applied some events under its lease
    const old = replica('old', 1);
    await old.runner.start();
    await old.runner.waitFor(await old.append('a', 2));
    await old.runner.waitFor(await old.append('b', 3));
    expect((await old.doc('a'))?.total).toBe(2);

    // When two replicas start with version 2 at once
    const v2a = replica('new-a', 2);
    const v2b = replica('new-b', 2);
    await Promise.all([v2a.runner.start(), v2b.runner.start()]);
    const head = await v2a.append('a', 1);
    await Promise.all([v2a.runner.waitFor(head), v2b.runner.waitFor(head)]);

    // Then exactly one of them rebuilt, every event counted once with version 2's logic
    const rebuilds = [...v2a.notices, ...v2b.notices].filter((n) => n.startsWith('rebuilding'));
    expect(rebuilds).toHaveLength(1);
    expect(await v2a.doc('a')).toMatchObject({ total: 2 * 2 + 1 * 2, count: 2 });
    expect(await v2a.doc('b')).toMatchObject({ total: 3 * 2, count: 1 });

    // ... and the old replica stops applying it, says so once, and refuses to wait for it
    await until(() => old.runner.status()[0].status === 'superseded');
    expect(old.runner.status()[0]).toMatchObject({
      version: 1,
      supersededBy: 2,
      lastError: 'superseded by version 2',
    });
    await expect(old.runner.waitFor(head)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(old.runner.waitFor(head, ['counters'])).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(old.notices.filter((n) => n.startsWith('superseded'))).toHaveLength(1);

    // ... and later events are still applied once each, through whichever replica
    const more = await old.append('a', 5);
    await v2b.runner.waitFor(more);
    const all = await events.readAll(0n, 1000);
    const folded = projectInMemory(counterProjection(2, 2), all).counters;
    expect(await v2b.doc('a')).toMatchObject({ total: folded.a.total, count: 3 });
    expect(old.notices.filter((n) => n.startsWith('superseded'))).toHaveLength(1);
  });

  it('fails a read-your-writes wait of the old replica instead of letting it hang', async () => {
    // Given a version 1 replica whose wait cannot be served by the version 2 holder
    const v2 = replica('new', 2);
    await v2.runner.start();
    await v2.runner.waitFor(await v2.append('a', 1));
    const old = replica('old', 1);
    await old.runner.start();

    // When it waits for an event
    const waiting = old.runner.waitFor(await old.append('a', 1));

    // Then the wait is refused as soon as it learns a newer version holds the projection
    await expect(waiting).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/superseded by 2/),
    });
    expect(old.runner.status()[0].status).toBe('superseded');
  });

  it('never lets an older replica take the lease back, even once it has expired', async () => {
    // Given version 2 holding the projection, and a version 1 replica beside it
    const v2 = replica('new', 2);
    await v2.runner.start();
    await v2.runner.waitFor(await v2.append('a', 1));
    const old = replica('old', 1);
    await old.runner.start();
    await until(() => old.runner.status()[0].status === 'superseded');

    // When the version 2 replica stops (its lease handed over at once)
    await running.splice(0, 1)[0].stop();
    await old.append('a', 1);
    await setTimeout(TTL_MS * 3);

    // Then the old replica has not applied anything with its old logic
    expect(old.runner.status()[0]).toMatchObject({ status: 'superseded', supersededBy: 2 });
    expect(await old.doc('a')).toMatchObject({ total: 2, count: 1 });
  });
});
