import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fileStoreHarness, type StoreHarness } from '../common/testing/store-harness.js';
import type { AppConfig } from '../config/app-config.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import { dueSchedules, embeddedRunnerPollMs, type ScheduleFields } from './due-schedules.js';

interface TestScheduleDoc extends ScheduleFields {
  enabled: boolean;
  setAt: string;
}

const NOW = new Date('2026-11-29T10:07:00Z');

function schedule(id: string, fields: Partial<TestScheduleDoc>): TestScheduleDoc {
  return {
    id,
    schedule: '*/5 * * * *',
    timezone: 'UTC',
    lastScheduledFor: null,
    enabled: true,
    setAt: '2026-11-29T09:00:00Z',
    ...fields,
  };
}

describe('dueSchedules', () => {
  let harness: StoreHarness<SqliteReadStore>;

  beforeEach(async () => {
    harness = fileStoreHarness('read.sqlite', (file) => new SqliteReadStore(file));
    await harness.store.ensureCollection({ name: 'schedules' });
  });
  afterEach(() => harness.dispose());

  it('given schedules claimed or not, when asked at a time, then each enabled one that came due yields its latest due time', async () => {
    // Given: one never claimed (due since set), one that claimed the latest time, one claimed
    // long ago (times missed), one disabled.
    const schedules = harness.store.collection<TestScheduleDoc>('schedules');
    await schedules.put(schedule('a', {}));
    await schedules.put(schedule('b', { lastScheduledFor: '2026-11-29T10:05:00Z' }));
    await schedules.put(schedule('c', { lastScheduledFor: '2026-11-28T10:05:00Z' }));
    await schedules.put(schedule('d', { enabled: false }));

    // When
    const due: Array<[string, string]> = [];
    for await (const { schedule: s, due: at } of dueSchedules(
      schedules,
      { filter: { enabled: true }, limit: 10, since: (s) => s.setAt },
      NOW,
    ))
      due.push([s.id, at.toISOString()]);

    // Then: only the latest missed time, once per schedule.
    expect(due).toEqual([
      ['a', '2026-11-29T10:05:00.000Z'],
      ['c', '2026-11-29T10:05:00.000Z'],
    ]);
  });

  it('polls as often as the embedded runner (at most each 250 ms), never with the runner elsewhere', () => {
    const config = (mode: string, pollMs: number) => ({ runner: { mode, pollMs } }) as AppConfig;
    expect(embeddedRunnerPollMs(config('embedded', 1000))).toBe(1000);
    expect(embeddedRunnerPollMs(config('embedded', 10))).toBe(250);
    expect(embeddedRunnerPollMs(config('off', 1000))).toBe(0);
  });
});
