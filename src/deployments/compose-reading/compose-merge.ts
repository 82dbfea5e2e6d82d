import { isOverridden, isReset } from './compose-tags.js';

export type ComposeMap = Record<string, unknown>;

export function isMap(value: unknown): value is ComposeMap {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Keys whose list is a command line: the extending service's replaces the base's. */
const REPLACED = new Set(['command', 'entrypoint', 'test']);

/** Keys that are a list or a map of `name=value`: merged as maps, name by name. */
const NAMED = new Set([
  'environment',
  'labels',
  'annotations',
  'extra_hosts',
  'sysctls',
  'args',
  'depends_on',
  'networks',
]);

/** Lists of things that each hold one place: an entry for the same place replaces the base's. */
const BY_TARGET = new Set(['volumes', 'devices', 'secrets', 'configs']);

/**
 * The merge of a service and what it `extends`, as Compose's merge rules have it: maps merge key
 * by key; scalars and command lines (`command`, `entrypoint`, `healthcheck.test`) of the service
 * win; `environment`, `labels` and the other name=value keys merge by name, whichever form
 * each side wrote; `volumes`, `devices`, `secrets` and `configs` merge by their target; other
 * lists (`ports`, `dns`, `cap_add`…) are joined without repeats. `!override` replaces whatever
 * the base had; `!reset` removes it.
 */
export function mergeService(base: unknown, own: unknown): unknown {
  return mergeValue(base, own, '');
}

function mergeValue(base: unknown, own: unknown, key: string): unknown {
  if (isReset(own)) return undefined;
  if (own === undefined) return base;
  if (isOverridden(own) || REPLACED.has(key)) return own;
  if (NAMED.has(key) && (Array.isArray(base) || Array.isArray(own))) {
    const [b, o] = [namedMap(base, key), namedMap(own, key)];
    if (b && o) return mergeMaps(b, o);
    return own;
  }
  if (isMap(base) && isMap(own)) return mergeMaps(base, own);
  if (Array.isArray(base) && Array.isArray(own)) {
    const keyOf = BY_TARGET.has(key) ? (e: unknown) => targetOf(key, e) : canonical;
    const byKey = new Map<string, unknown>();
    for (const entry of [...base, ...own]) {
      const k = keyOf(entry);
      byKey.delete(k); // the later entry takes the place, at the end as Compose lists it
      byKey.set(k, entry);
    }
    return [...byKey.values()];
  }
  return own;
}

function mergeMaps(base: ComposeMap, own: ComposeMap): ComposeMap {
  const merged: ComposeMap = { ...base };
  for (const [k, value] of Object.entries(own)) {
    const next = mergeValue(base[k], value, k);
    if (next === undefined) delete merged[k];
    else merged[k] = next;
  }
  return merged;
}

/** A `KEY=value` list as a map (a map as it is); null when entries are not what the key takes. */
function namedMap(value: unknown, key: string): ComposeMap | null {
  if (isMap(value)) return value;
  if (!Array.isArray(value)) return null;
  const map: ComposeMap = {};
  for (const entry of value) {
    if (typeof entry !== 'string') return null;
    if (key === 'depends_on') map[entry] = { condition: 'service_started' };
    else if (key === 'networks') map[entry] = null;
    else {
      // extra_hosts write `host:ip` as well as `host=ip`.
      const at = key === 'extra_hosts' ? firstOf(entry, ['=', ':']) : entry.indexOf('=');
      if (at < 0) map[entry] = null;
      else map[entry.slice(0, at)] = entry.slice(at + 1);
    }
  }
  return map;
}

function firstOf(text: string, separators: string[]): number {
  const found = separators.map((s) => text.indexOf(s)).filter((i) => i >= 0);
  return found.length ? Math.min(...found) : -1;
}

/** Where a volume, device, secret or config lands in the container. */
function targetOf(key: string, entry: unknown): string {
  if (isMap(entry)) {
    const target = entry.target ?? entry.source;
    return typeof target === 'string' ? target : canonical(entry);
  }
  if (typeof entry !== 'string') return canonical(entry);
  if (key === 'secrets' || key === 'configs') return entry;
  const parts = entry.split(':');
  // `/data` (anonymous), `src:/data`, `src:/data:ro`: the container path is the second part.
  return parts.length === 1 ? parts[0] : parts[1];
}

function canonical(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/**
 * Drops what the tags marked once merging is done: a `!reset` key is removed (with nothing to
 * reset, Compose leaves it unset too); an `!override` value stays as written.
 */
export function withoutTags(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !isReset(v)).map(withoutTags);
  if (!isMap(value)) return value;
  const out: ComposeMap = {};
  for (const [k, v] of Object.entries(value)) if (!isReset(v)) out[k] = withoutTags(v);
  return out;
}
