import { describe, expect, it } from '@jest/globals';
import { formatMetric } from './metric-format';

describe('formatMetric', () => {
  it('Given percentages, then three significant digits at most, no trailing zeros', () => {
    expect([0, 5, 7.25, 42.46, 63.1, 100].map((v) => formatMetric(v, 'percent'))).toEqual([
      '0%',
      '5%',
      '7.25%',
      '42.5%',
      '63.1%',
      '100%',
    ]);
  });

  it('Given bytes, then 1024-based units', () => {
    expect(
      [512, 2048, 150 * 1024 ** 2, 12.5 * 1024 ** 3, 3 * 1024 ** 4].map((v) =>
        formatMetric(v, 'bytes'),
      ),
    ).toEqual(['512 B', '2 KB', '150 MB', '12.5 GB', '3 TB']);
  });

  it('Given a count, then a whole number', () => {
    expect(formatMetric(2.6, 'count')).toBe('3');
  });
});
