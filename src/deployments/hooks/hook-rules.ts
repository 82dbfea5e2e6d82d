import type { DeployHookRule } from '../../events/notifications.events.js';

/** What a delivery announces: a git tag pushed, or an image pushed with a tag. */
export interface Announced {
  source: 'tag' | 'image';
  tag: string;
  /** The pushed image's repository, when the payload names it (image pushes). */
  repository: string | null;
}

const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const REPOSITORY = /^[a-z0-9][a-z0-9._/:-]{0,254}$/;

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * Whether a git push delivery deletes its ref (GitHub's `deleted: true`; GitHub's, GitLab's and
 * Gitea's `after` of zeros): the tag it names is gone, and nothing deploys from it.
 */
export function deletesRef(payload: unknown): boolean {
  if (field(payload, 'deleted') === true) return true;
  const after = text(field(payload, 'after'));
  return after !== null && /^0{40}(?:0{24})?$/.test(after);
}

/**
 * The tag or image a payload announces, from the shapes senders use: a git push of a tag
 * (GitHub, GitLab, Gitea: `ref: "refs/tags/<tag>"`), a GitHub package publish (the `package`
 * and `registry_package` events: `<event>.package_version.container_metadata.tag.name`), a
 * Docker Hub push
 * (`push_data.tag`, `repository.repo_name`), or Slipway's own `{tag}` / `{image: {repository, tag}}`.
 * Null when it announces neither (a branch push, an issue, ...).
 */
export function announcedBy(payload: unknown): Announced | null {
  const ref = text(field(payload, 'ref'));
  if (ref?.startsWith('refs/tags/')) return valid('tag', ref.slice('refs/tags/'.length), null);
  for (const event of ['package', 'registry_package']) {
    const version = field(payload, event, 'package_version');
    const ghcrTag = text(field(version, 'container_metadata', 'tag', 'name'));
    if (ghcrTag === null) continue;
    const name = text(field(version, 'package_url'));
    return valid('image', ghcrTag, name ? name.replace(/:[^/:]*$/, '') : null);
  }
  const hubTag = text(field(payload, 'push_data', 'tag'));
  if (hubTag !== null)
    return valid('image', hubTag, text(field(payload, 'repository', 'repo_name')));
  const imageTag = text(field(payload, 'image', 'tag'));
  if (imageTag !== null)
    return valid('image', imageTag, text(field(payload, 'image', 'repository')));
  const tag = text(field(payload, 'tag'));
  if (tag !== null) return valid('tag', tag, null);
  return null;
}

function valid(source: 'tag' | 'image', tag: string, repository: string | null): Announced | null {
  if (!TAG.test(tag)) return null;
  return { source, tag, repository: repository && REPOSITORY.test(repository) ? repository : null };
}

/** A rule's glob as a whole-string regular expression: `*` is any run of tag characters. */
export function globPattern(glob: string): RegExp {
  const parts = glob.split('*').map((p) => p.replace(/[.\\-]/g, (c) => `\\${c}`));
  return new RegExp(`^${parts.join('[A-Za-z0-9._-]*')}$`);
}

/** The first rule of the announcement's source whose pattern matches its tag, or null. */
export function ruleFor(
  rules: readonly DeployHookRule[],
  announced: Announced,
): DeployHookRule | null {
  return (
    rules.find(
      (r) => r.source === announced.source && globPattern(r.pattern).test(announced.tag),
    ) ?? null
  );
}

/** The image `rule` maps the announced tag to. */
export function imageOf(rule: DeployHookRule, announced: Announced): string {
  return rule.image
    .replaceAll('{tag}', announced.tag)
    .replaceAll('{version}', announced.tag.replace(/^v(?=\d)/, ''));
}

/** The image the first matching rule maps the announcement to, or null when none matches. */
export function imageFor(rules: readonly DeployHookRule[], announced: Announced): string | null {
  const rule = ruleFor(rules, announced);
  return rule && imageOf(rule, announced);
}
