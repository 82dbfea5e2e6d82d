import type { GitRefRule } from '../../events/git-sources.events.js';

/** A pushed ref as a kind and a name: `refs/heads/main` is the branch `main`. */
export function refOf(ref: string): { kind: 'branch' | 'tag'; name: string } | null {
  const match = /^refs\/(heads|tags)\/(.+)$/.exec(ref);
  if (!match) return null;
  return { kind: match[1] === 'heads' ? 'branch' : 'tag', name: match[2] };
}

function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(name);
}

/**
 * What a push of `ref` does under `rules`: the first rule of the ref's kind whose pattern
 * matches its name decides (`ignore` included); no rule: nothing is deployed.
 */
export function gitRefAction(
  rules: readonly GitRefRule[],
  ref: string,
): { rule: GitRefRule; name: string } | null {
  const parsed = refOf(ref);
  if (!parsed) return null;
  const rule = rules.find((r) => r.kind === parsed.kind && globMatches(r.pattern, parsed.name));
  return rule ? { rule, name: parsed.name } : null;
}
