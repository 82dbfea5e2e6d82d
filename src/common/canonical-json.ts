/**
 * Deterministic JSON: object keys sorted at every level, no whitespace. The same value always
 * gives the same bytes, whichever process or adapter wrote it, so its hash can be recomputed.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint'
      ? JSON.stringify(value.toString())
      : (JSON.stringify(value) ?? 'null');
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
