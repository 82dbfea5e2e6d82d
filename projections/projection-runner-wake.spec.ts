import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { testEvent } from '../src/eventstore/testing/test-events.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import { ProjectionRunner } from './projection-runner.js';
import { counterProjection, type CounterDoc } from './testing/counter-projection.js';

/**
 * Events another process appends (here: another connection to the same file, which the kernel
 * reports the same way) wake the runner at once; its poll is set longer than the test may last.
 */
describe('ProjectionRunner woken by appends to the shared event file', () => {
  let dir: string;
  let events: SqliteEventStore;
  let elsewhere: SqliteEventStore;
  let reads: SqliteReadStore;
  let runner: ProjectionRunner;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-proj-wake-'));
    const file = join(dir, 'events.sqlite');
    events = new SqliteEventStore(file, { pollIntervalMs: 600_000 });
    elsewhere = new SqliteEventStore(file, { watch: false });
    reads = new SqliteReadStore(join(dir, 'read.sqlite'));
    runner = new ProjectionRunner(events, reads, [counterProjection()], {
      pollIntervalMs: 600_000,
      waitTimeoutMs: 20_000,
    });
    await runner.start();
  });
  afterEach(async () => {
    await runner.stop();
    await elsewhere.close();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies events appended by another writer without being poked or polled', async () => {
    let last = 0n;
    for (const by of [2, 3, 4]) {
      last = (await elsewhere.append('c-a', [testEvent('Counted', { key: 'a', by })], 'any'))
        .lastPosition;
      // Waiting does not poke the loop either: only the notification can have woken it.
      await new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          if (runner.position() < Number(last)) return;
          clearInterval(check);
          clearTimeout(timeout);
          resolve();
        }, 5);
        const timeout = setTimeout(() => {
          clearInterval(check);
          reject(new Error(`still at ${runner.position()}, not ${last}`));
        }, 15_000);
      });
    }
    const doc = await reads.collection<CounterDoc>('counters').get('a');
    expect(doc).toMatchObject({ total: 9, count: 3 });
  });
});
