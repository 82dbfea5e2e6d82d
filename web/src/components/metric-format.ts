/** How a metric's values read: percentages, bytes (1024-based, as backups are), or counts. */
export type MetricUnit = 'percent' | 'bytes' | 'count';

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Three significant digits at most (two decimals below 10, one below 100), no trailing zeros. */
function number(n: number): string {
  const abs = Math.abs(n);
  const text = n.toFixed(abs < 10 ? 2 : abs < 100 ? 1 : 0);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A metric's value in words: "42.5%", "1.5 GB", "3". */
export function formatMetric(value: number, unit: MetricUnit): string {
  if (unit === 'percent') return `${number(value)}%`;
  if (unit === 'count') return String(Math.round(value));
  let scaled = value;
  let i = 0;
  while (Math.abs(scaled) >= 1024 && i < BYTE_UNITS.length - 1) {
    scaled /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(scaled)} B` : `${number(scaled)} ${BYTE_UNITS[i]}`;
}
