/**
 * Freezes `value` and everything it holds, for a value shared between callers: one who tried
 * to change it would fail loudly (strict mode) instead of changing it for the others.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
