import { YAMLMap, YAMLSeq, type CollectionTag, type ScalarTag } from 'yaml';

type ToJSContext = Parameters<YAMLMap['toJSON']>[1];

/**
 * Compose's two merge tags. `!reset` removes what a base (`extends`) gave the key; `!override`
 * replaces it whole instead of merging. Read, they become marks the merge obeys and then drops:
 * nothing tagged reaches validation, the policy or the server.
 */
export const RESET: unique symbol = Symbol('compose !reset');
export type Reset = typeof RESET;

/** Collections tagged `!override`, as read (identity, so a copy is never mistaken for one). */
const overridden = new WeakSet<object>();

export function isReset(value: unknown): value is Reset {
  return value === RESET;
}

export function isOverridden(value: unknown): boolean {
  return typeof value === 'object' && value !== null && overridden.has(value);
}

/** A copy of a value stands for it: an `!override` stays one when the value is copied. */
export function copyTag<T extends object>(from: unknown, to: T): T {
  if (isOverridden(from)) overridden.add(to);
  return to;
}

class OverrideMap extends YAMLMap {
  override toJSON(_?: unknown, ctx?: ToJSContext): unknown {
    const value: unknown = super.toJSON(_, ctx);
    if (typeof value === 'object' && value !== null) overridden.add(value);
    return value;
  }
}

class OverrideSeq extends YAMLSeq {
  override toJSON(_?: unknown, ctx?: ToJSContext): unknown[] {
    const value = super.toJSON(_, ctx);
    overridden.add(value);
    return value;
  }
}

function adopt<T extends YAMLMap | YAMLSeq>(into: T, from: YAMLMap | YAMLSeq): T {
  into.items = from.items as T['items'];
  into.range = from.range;
  into.flow = from.flow;
  return into;
}

/** The tags as the YAML reader takes them: on a scalar, a map or a list. */
export const COMPOSE_TAGS: (ScalarTag | CollectionTag)[] = [
  { tag: '!reset', resolve: () => RESET },
  { tag: '!reset', collection: 'map', resolve: () => RESET },
  { tag: '!reset', collection: 'seq', resolve: () => RESET },
  { tag: '!override', resolve: (text: string) => text },
  {
    tag: '!override',
    collection: 'map',
    resolve: (map) => adopt(new OverrideMap(), map as YAMLMap),
  },
  {
    tag: '!override',
    collection: 'seq',
    resolve: (seq) => adopt(new OverrideSeq(), seq as YAMLSeq),
  },
];
