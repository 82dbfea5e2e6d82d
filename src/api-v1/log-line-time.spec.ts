import { describe, expect, it } from '@jest/globals';
import { after, lineTime, resumeTime } from './log-line-time.js';

describe('container log lines’ times', () => {
  it('reads the timestamp docker compose logs --timestamps puts after the container', () => {
    expect(lineTime('web-1  | 2026-11-28T15:00:00.123456789Z listening on :80')).toBe(
      '2026-11-28T15:00:00.123456789Z',
    );
    expect(lineTime('web-1  | 2026-11-28T15:00:01Z up')).toBe('2026-11-28T15:00:01Z');
    expect(lineTime('no stamp here')).toBeNull();
  });

  it('resumes only from a timestamp', () => {
    expect(resumeTime('2026-11-28T15:00:00.5Z')).toBe('2026-11-28T15:00:00.5Z');
    for (const bad of ['12', 'end', '2026-11-28 15:00:00', undefined, ['a']])
      expect(resumeTime(bad)).toBeNull();
  });

  it('compares to the nanosecond, whatever zeros Docker dropped', () => {
    expect(after('2026-11-28T15:00:00.5Z', '2026-11-28T15:00:00.499999999Z')).toBe(true);
    expect(after('2026-11-28T15:00:00.5Z', '2026-11-28T15:00:00.500000000Z')).toBe(false);
    expect(after('2026-11-28T15:00:01Z', '2026-11-28T15:00:00.999Z')).toBe(true);
    expect(after('2026-11-28T15:00:00Z', '2026-11-28T15:00:00.000000001Z')).toBe(false);
  });
});
