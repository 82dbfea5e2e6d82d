import { isMap, type ComposeMap } from './findings.js';

/**
 * A service as it is judged: with what it `extends` from this same file merged in, so that
 * nothing Compose assembles from two services escapes being judged together. Lists are joined
 * and maps merged (a superset of what Compose keeps), scalars of the service itself win. An
 * `extends.file` is not followed: the policy refuses it on its own.
 */
export function withExtends(services: ComposeMap, name: string): unknown {
  const chain: unknown[] = [];
  const seen = new Set<string>();
  let current: string | null = name;
  while (current !== null && !seen.has(current) && isMap(services[current])) {
    seen.add(current);
    const service: ComposeMap = services[current] as ComposeMap;
    chain.push(service);
    current = baseOf(service.extends);
  }
  // Not a mapping: nothing to merge (validation refuses it), judged as it is.
  if (chain.length === 0) return services[name];
  return chain.reduceRight((base, own) => mergeForJudging(base, own));
}

function baseOf(extendsValue: unknown): string | null {
  if (typeof extendsValue === 'string') return extendsValue;
  if (
    isMap(extendsValue) &&
    extendsValue.file === undefined &&
    typeof extendsValue.service === 'string'
  )
    return extendsValue.service;
  return null;
}

function mergeForJudging(base: unknown, own: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(own)) return [...base, ...own];
  if (!isMap(base) || !isMap(own)) return own === undefined ? base : own;
  const merged: ComposeMap = { ...base };
  for (const [key, value] of Object.entries(own))
    merged[key] = key in base ? mergeForJudging(base[key], value) : value;
  return merged;
}
