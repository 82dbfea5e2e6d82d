import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { copyEvents, migrationAppends } from './migrate-events.js';
import { SqliteEventStore } from './sqlite/sqlite-event-store.js';
import { testEvent } from './testing/test-events.js';

const legacy = fileURLToPath(
  new URL('../../e2e/fixtures/legacy-store-9ccf61e/events.sqlite', import.meta.url),
);

describe('copying an event store (the reading and ordering half of the migration)', () => {
  let dir: string;
  let source: SqliteEventStore;
  let target: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-migrate-'));
    target = new SqliteEventStore(join(dir, 'target.sqlite'));
  });
  afterEach(async () => {
    await source.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('groups consecutive events of one stream into one append, in global order', async () => {
    source = new SqliteEventStore(join(dir, 'source.sqlite'));
    await source.append('a', [testEvent('A0'), testEvent('A1')], 'no_stream');
    await source.append('b', [testEvent('B0')], 'no_stream');
    await source.append('a', [testEvent('A2')], 1n);
    await source.append('a', [testEvent('A3')], 2n);
    const appends = [];
    for await (const { stream, events } of migrationAppends(source)) {
      appends.push([stream, events.map((e) => e.type)]);
    }
    expect(appends).toEqual([
      ['a', ['A0', 'A1']],
      ['b', ['B0']],
      ['a', ['A2', 'A3']],
    ]);
  });

  it('splits a run of one stream longer than an append may be, and copies it whole', async () => {
    source = new SqliteEventStore(join(dir, 'source.sqlite'));
    for (let i = 0; i < 11; i++) {
      const events = Array.from({ length: 1000 }, (_, j) => testEvent(`E${i * 1000 + j}`));
      await source.append('long', events, i === 0 ? 'no_stream' : BigInt(i * 1000 - 1));
    }
    const sizes = [];
    for await (const { events } of migrationAppends(source)) sizes.push(events.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1000);
    const report = await copyEvents(source, target);
    expect([report.events, report.mismatches]).toEqual([11_000, []]);
  });

  it('copies a real store with ids, streams, revisions, data and metadata intact', async () => {
    copyFileSync(legacy, join(dir, 'source.sqlite'));
    source = new SqliteEventStore(join(dir, 'source.sqlite'));
    const report = await copyEvents(source, target);
    expect(report.mismatches).toEqual([]);
    expect(report.events).toBe(Number(await source.headPosition()));
    expect(await target.headPosition()).toBe(await source.headPosition());
    // A second run refuses to copy onto streams that already exist: nothing is doubled.
    await expect(copyEvents(source, target)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await target.headPosition()).toBe(await source.headPosition());
  });
});
