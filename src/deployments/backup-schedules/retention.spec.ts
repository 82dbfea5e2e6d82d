import { describe, expect, it } from '@jest/globals';
import { toPrune } from './retention.js';

const backup = (id: string, takenAt: string) => ({ id, takenAt });
const ids = (list: { id: string }[]) => list.map((b) => b.id).sort();

describe('backup retention', () => {
  const hourly = [
    backup('a', '2026-11-29T10:00:00Z'),
    backup('b', '2026-11-29T09:00:00Z'),
    backup('c', '2026-11-29T08:00:00Z'),
    backup('d', '2026-11-28T23:00:00Z'),
    backup('e', '2026-11-28T10:00:00Z'),
    backup('f', '2026-11-20T10:00:00Z'),
  ];

  it('Given keep last 2, Then the rest goes', () => {
    expect(ids(toPrune(hourly, { keepLast: 2, keepDaily: 0, keepWeekly: 0 }, 'UTC'))).toEqual([
      'c',
      'd',
      'e',
      'f',
    ]);
  });

  it('Given keep daily 2, Then the newest of each of the last two days stays', () => {
    expect(ids(toPrune(hourly, { keepLast: 1, keepDaily: 2, keepWeekly: 0 }, 'UTC'))).toEqual([
      'b',
      'c',
      'e',
      'f',
    ]);
  });

  it('Given keep weekly 2, Then the newest of each of the last two ISO weeks stays', () => {
    expect(ids(toPrune(hourly, { keepLast: 1, keepDaily: 0, keepWeekly: 2 }, 'UTC'))).toEqual([
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('reads days in the schedule’s time zone, and always keeps the newest', () => {
    // 23:00 UTC on the 28th is already the 29th in Tokyo: one day with a, b, c, d.
    expect(
      ids(toPrune(hourly, { keepLast: 0, keepDaily: 2, keepWeekly: 0 }, 'Asia/Tokyo')),
    ).toEqual(['b', 'c', 'd', 'f']);
    expect(
      toPrune(
        [backup('x', '2026-11-29T10:00:00Z')],
        { keepLast: 0, keepDaily: 0, keepWeekly: 0 },
        'UTC',
      ),
    ).toEqual([]);
  });
});
