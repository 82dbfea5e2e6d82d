/** Deep enough for any answer or input; a deeper value is not taken for plain. */
const MAX_DEPTH = 64;

/**
 * Whether `value` is JSON as it stands: null, booleans, finite numbers (not -0), strings, arrays
 * and plain objects of those, no `undefined` anywhere. Then `JSON.stringify` keeps all of it,
 * and `JSON.parse` of that text gives the same value back.
 */
export function isPlainJson(value: unknown, depth = 0): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (depth > MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (const item of value) if (!isPlainJson(item, depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value)
        if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * `value` as JSON text when it is plain JSON (see isPlainJson) of at most `maxLength`
 * characters, else null. A value whose strings and keys alone are longer is turned away before
 * anything is written.
 */
export function shortJsonText(value: unknown, maxLength: number): string | null {
  if (!isPlainJson(value) || textLength(value, maxLength) > maxLength) return null;
  const text = JSON.stringify(value);
  return text.length <= maxLength ? text : null;
}

/** The characters of the strings and keys in `value`, counted until `budget` is passed. */
function textLength(value: unknown, budget: number): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  let length = 0;
  if (Array.isArray(value)) {
    for (const item of value) if ((length += textLength(item, budget - length)) > budget) break;
    return length;
  }
  for (const key in value) {
    length += key.length + textLength((value as Record<string, unknown>)[key], budget - length);
    if (length > budget) break;
  }
  return length;
}
