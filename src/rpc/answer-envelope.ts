import SuperJSON from 'superjson';

/** Deep enough for any answer; a deeper one is left to superjson. */
const MAX_DEPTH = 64;

/**
 * Whether `value` is JSON as it stands: null, booleans, finite numbers, strings, arrays and
 * plain objects of those, no `undefined` anywhere. Then superjson would add no `meta`, and its
 * walk (which builds a path for every value) is only cost.
 */
function plainJson(value: unknown, depth = 0): boolean {
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
        for (const item of value) if (!plainJson(item, depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value)
        if (!plainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A procedure's answer in tRPC's superjson form, `{json, meta?}`: the same as
 * `SuperJSON.serialize`, which is only called when the answer holds a value JSON cannot carry
 * (a Date, undefined, a Map, a bigint...). Most answers are read-model documents, plain JSON.
 */
export function answerEnvelope(result: unknown): { json: unknown; meta?: unknown } {
  const value = result ?? null;
  return plainJson(value) ? { json: value } : SuperJSON.serialize(value);
}
