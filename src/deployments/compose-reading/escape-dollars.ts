/**
 * A normalized document made ready for the server's Compose, which interpolates again: every
 * `$` in a value becomes `$$`, read back as the one `$` it is. Keys are not interpolated, so
 * they stay as they are.
 */
export function escapeDollars(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\$/g, '$$$$');
  if (Array.isArray(value)) return value.map(escapeDollars);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, escapeDollars(v)]),
  );
}
