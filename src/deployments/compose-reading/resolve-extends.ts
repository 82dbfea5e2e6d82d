import type { FieldIssue } from '../../common/app-error.js';
import { isMap, mergeService, type ComposeMap } from './compose-merge.js';

/** Real files extend once or twice; the bound keeps the walk shallow. */
const MAX_CHAIN = 16;

/**
 * Every service with what it `extends` (in this same file) merged in, as Compose assembles it,
 * and `extends` gone: what is validated, judged and run is the assembled service. A chain that
 * loops or a base that is not a service here is refused. An `extends.file` is left as written:
 * that file is on the server, and the compose policy's `composeFiles` judges reading it.
 */
export function resolveExtends(
  services: ComposeMap,
): { ok: true; services: ComposeMap } | { ok: false; issues: FieldIssue[] } {
  const resolved = new Map<string, unknown>();
  const issues: FieldIssue[] = [];
  const resolve = (name: string, chain: string[]): unknown => {
    if (resolved.has(name)) return resolved.get(name);
    const own = services[name];
    if (!isMap(own) || own.extends === undefined) {
      resolved.set(name, own);
      return own;
    }
    const at = `compose.services.${name}.extends`;
    const base = baseOf(own.extends);
    // Another file is read by Compose on the server, never here: the service stays as written,
    // and the policy's `composeFiles` decides whether the server may read it.
    if ('otherFile' in base) {
      resolved.set(name, own);
      return own;
    }
    let value: unknown = withoutExtends(own);
    if ('problem' in base) issues.push({ path: at, message: base.problem });
    else if (chain.length >= MAX_CHAIN)
      issues.push({ path: at, message: `extends more than ${MAX_CHAIN} services in a chain` });
    else if (chain.includes(base.name))
      issues.push({ path: at, message: `loops: ${[...chain, base.name].join(' → ')}` });
    else if (!isMap(services[base.name]))
      issues.push({ path: at, message: `names ${JSON.stringify(base.name)}, not a service here` });
    else value = mergeService(resolve(base.name, [...chain, base.name]), withoutExtends(own));
    resolved.set(name, value);
    return value;
  };
  const out: ComposeMap = {};
  for (const name of Object.keys(services)) out[name] = resolve(name, [name]);
  return issues.length ? { ok: false, issues } : { ok: true, services: out };
}

function withoutExtends(service: ComposeMap): ComposeMap {
  const copy = { ...service };
  delete copy.extends;
  return copy;
}

function baseOf(value: unknown): { name: string } | { problem: string } | { otherFile: true } {
  if (typeof value === 'string') return { name: value };
  if (!isMap(value) || typeof value.service !== 'string')
    return { problem: 'must name a service: extends: NAME or extends: {service: NAME}' };
  if (value.file !== undefined) return { otherFile: true };
  return { name: value.service };
}
