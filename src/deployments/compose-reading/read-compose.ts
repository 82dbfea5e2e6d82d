import type { FieldIssue } from '../../common/app-error.js';
import { parseBoundedYaml } from '../../common/bounded-yaml.js';
import { COMPOSE_LIMITS } from '../compose-limits.js';
import { isMap, withoutTags, type ComposeMap } from './compose-merge.js';
import { COMPOSE_TAGS, copyTag, isReset } from './compose-tags.js';
import { interpolate, type ComposeVariables } from './interpolation.js';
import { resolveExtends } from './resolve-extends.js';

export type ComposeRead =
  | {
      ok: true;
      /** The document Compose would assemble: what is validated, judged, planned and run. */
      document: ComposeMap;
      /** Variables the file reads that are not set: read as empty, as Compose does. */
      unset: string[];
    }
  | { ok: false; cause: 'limits' | 'syntax' | 'invalid'; issues: FieldIssue[] };

/** Interpolated text may grow past the file: bounded like the file, with room for values. */
const MAX_INTERPOLATED_CHARS = 4 * COMPOSE_LIMITS.maxChars;

/**
 * A compose definition as Compose reads it, normalized once for everyone who looks at it:
 * parsed within COMPOSE_LIMITS (anchors, aliases and `<<` merge keys resolved), every value
 * interpolated from `variables` (the service's; the server's environment is never read), each
 * service merged with what it `extends` (`!reset` and `!override` obeyed), and the tags gone.
 * The runner ships this document with its `$` escaped, so the server's Compose reads exactly it.
 */
export function readComposeDocument(
  text: string,
  /** Null: every `$` left as written, for a document that is written out again and read later. */
  variables: ComposeVariables | null,
): ComposeRead {
  const parsed = parseBoundedYaml(text, 'compose', COMPOSE_LIMITS, {
    mergeKeys: true,
    customTags: COMPOSE_TAGS,
  });
  if (!parsed.ok) return parsed;
  if (!isMap(parsed.value))
    return invalid([{ path: 'compose', message: 'must be a mapping with services' }]);
  const unset = new Set<string>();
  const interpolated =
    variables === null
      ? { ok: true as const, value: parsed.value }
      : interpolateAll(parsed.value, variables, unset);
  if (!interpolated.ok) return interpolated;
  let document = interpolated.value as ComposeMap;
  if (isMap(document.services)) {
    const assembled = resolveExtends(document.services);
    if (!assembled.ok) return invalid(assembled.issues);
    document = { ...document, services: assembled.services };
  }
  return { ok: true, document: withoutTags(document) as ComposeMap, unset: [...unset].sort() };
}

type Refused = Extract<ComposeRead, { ok: false }>;

function invalid(issues: FieldIssue[]): Refused {
  return { ok: false, cause: 'invalid', issues: issues.slice(0, 20) };
}

/** Every string value (not keys: Compose interpolates values only), walked without recursion. */
function interpolateAll(
  root: ComposeMap,
  variables: ComposeVariables,
  unset: Set<string>,
): { ok: true; value: unknown } | Refused {
  let budget = MAX_INTERPOLATED_CHARS;
  const copy = (value: unknown): unknown =>
    Array.isArray(value)
      ? copyTag(value, [...value])
      : isMap(value)
        ? copyTag(value, { ...value })
        : value;
  const top = copy(root) as ComposeMap;
  const stack: { node: ComposeMap | unknown[]; path: string }[] = [{ node: top, path: 'compose' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const keys: (string | number)[] = Array.isArray(node)
      ? node.map((_, i) => i)
      : Object.keys(node);
    for (const key of keys) {
      const at = typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`;
      const value = (node as Record<string | number, unknown>)[key];
      if (typeof value === 'string') {
        const result = interpolate(value, variables, unset);
        if (!result.ok) return invalid([{ path: at, message: result.message }]);
        budget -= result.value.length;
        if (budget < 0)
          return {
            ok: false,
            cause: 'limits',
            issues: [
              {
                path: 'compose',
                message: `interpolates to more than ${MAX_INTERPOLATED_CHARS} characters`,
              },
            ],
          };
        (node as Record<string | number, unknown>)[key] = result.value;
      } else if (!isReset(value) && typeof value === 'object' && value !== null) {
        const child = copy(value) as ComposeMap | unknown[];
        (node as Record<string | number, unknown>)[key] = child;
        stack.push({ node: child, path: at });
      }
    }
  }
  return { ok: true, value: top };
}
