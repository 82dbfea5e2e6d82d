import { describe, expect, it } from '@jest/globals';
import { dueTime, nextTime, scheduleProblem } from './cron-schedule.js';

const at = (iso: string) => new Date(iso);

describe('cron schedules', () => {
  it('accepts cron expressions and names, refuses the rest', async () => {
    expect(await scheduleProblem('*/5 * * * *', 'UTC')).toBeNull();
    expect(await scheduleProblem('@daily', 'Europe/Paris')).toBeNull();
    expect(await scheduleProblem('61 * * * *', 'UTC')).toMatch(/not a cron expression/);
    expect(await scheduleProblem('* * * * *', 'Mars/Olympus')).toMatch(/not an IANA time zone/);
    expect(await scheduleProblem('* * * * * *', 'UTC')).toMatch(/more than once a minute/);
  });

  it('Given a schedule every 5 minutes, Then the latest due time since the last run is due', async () => {
    const after = at('2026-11-29T10:00:00Z');
    expect(await dueTime('*/5 * * * *', 'UTC', after, at('2026-11-29T10:04:59Z'))).toBeNull();
    expect(await dueTime('*/5 * * * *', 'UTC', after, at('2026-11-29T10:05:00Z'))).toEqual(
      at('2026-11-29T10:05:00Z'),
    );
    // Missed runs are not made up one by one: only the latest is due.
    expect(await dueTime('*/5 * * * *', 'UTC', after, at('2026-11-29T10:17:30Z'))).toEqual(
      at('2026-11-29T10:15:00Z'),
    );
  });

  it('reads the schedule in its time zone', async () => {
    expect(await nextTime('0 9 * * *', 'Europe/Paris', at('2026-11-29T10:02:00Z'))).toEqual(
      at('2026-11-30T08:00:00Z'),
    );
  });
});
