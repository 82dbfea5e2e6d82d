import type { GitSourceData } from '../../events/git-sources.events.js';
import { COMMIT_ID, firstLine, object, text, type Json } from './delivery-fields.js';
import { gitRefAction } from './git-ref-rules.js';
import { parseGitRepository } from './git-repository.js';

/** Which provider sent a delivery, as its event header says. */
export type GitProvider = 'github' | 'gitlab' | 'gitea';

/** A push as Slipway acts on it, whoever sent it. */
export interface GitPush {
  provider: GitProvider;
  /** `refs/heads/<branch>` or `refs/tags/<tag>`. */
  ref: string;
  /** The commit the ref points to now (all zeros when the ref was deleted). */
  commit: string;
  /** The commit the push moved the ref from; null when it created the ref (or none is given). */
  before: string | null;
  deleted: boolean;
  /** Every address the delivery gives for the repository (SSH and HTTPS). */
  repositoryUrls: string[];
  pusher: string | null;
  /** The first line of the head commit's message, and its author, when the delivery says. */
  message: string | null;
  author: string | null;
}

const ZERO = /^0+$/;

/** The provider's event name for a push, by the header each sends. */
export function pushEventOf(provider: GitProvider, event: string | undefined): boolean {
  if (provider === 'gitlab') return event === 'Push Hook' || event === 'Tag Push Hook';
  return event === 'push';
}

/**
 * Reads a push delivery's body as its provider sends it: GitHub's and Gitea/Forgejo's `push`
 * (`ref`, `before`, `after`, `deleted`, `repository.ssh_url`/`clone_url`, `pusher`,
 * `head_commit`), and GitLab's `Push Hook`/`Tag Push Hook` (`ref`, `before`, `after`,
 * `project.git_ssh_url`/`git_http_url`, `user_username`, `commits`). A body without a ref or a
 * commit is not a push: null.
 */
export function readGitPush(provider: GitProvider, body: unknown): GitPush | null {
  const b = object(body);
  const ref =
    typeof b.ref === 'string' && /^refs\/(heads|tags)\/.{1,250}$/.test(b.ref) ? b.ref : null;
  const commit = typeof b.after === 'string' && COMMIT_ID.test(b.after) ? b.after : null;
  if (!ref || !commit) return null;
  const deleted = b.deleted === true || ZERO.test(commit);
  // All zeros when the push created the ref: it moved from nothing.
  const before =
    typeof b.before === 'string' && COMMIT_ID.test(b.before) && !ZERO.test(b.before)
      ? b.before
      : null;
  // Where each provider puts the repository's addresses, the pusher and the head commit.
  let urls: unknown[];
  let pusher: unknown;
  let head: Json;
  if (provider === 'gitlab') {
    const project = object(b.project);
    const commits = Array.isArray(b.commits) ? b.commits.map(object) : [];
    urls = [project.git_ssh_url, project.git_http_url, project.web_url];
    pusher = b.user_username;
    head = commits.find((c) => c.id === commit) ?? commits[commits.length - 1] ?? {};
  } else {
    const repository = object(b.repository);
    const by = object(b.pusher);
    urls = [repository.ssh_url, repository.clone_url, repository.html_url];
    pusher = by.name ?? by.login ?? by.username;
    head = object(b.head_commit);
  }
  return {
    provider,
    ref,
    commit,
    before,
    deleted,
    repositoryUrls: urls.map((u) => text(u, 300)).filter((u): u is string => u !== null),
    pusher: text(pusher, 100),
    message: firstLine(head.message ?? (provider === 'gitlab' ? b.message : undefined)),
    author: text(object(head.author).name, 100),
  };
}

/** A repository's identity across its addresses: host and path, without `.git`, lower-case. */
export function repositoryKey(address: string): string | null {
  const parsed = parseGitRepository(address);
  if ('error' in parsed) return null;
  return `${parsed.host}/${parsed.path.replace(/\.git$/, '').replace(/\/+$/, '')}`.toLowerCase();
}

/** Whether a delivery's addresses name the repository a source follows. */
export function sameRepository(followed: string, deliveryUrls: readonly string[]): boolean {
  const key = repositoryKey(followed);
  return !!key && deliveryUrls.some((u) => repositoryKey(u) === key);
}

export type PushDecision =
  | { deploy: 'now' | 'after-approval'; commit: string; refName: string }
  | { ignored: 'deleted' | 'another-repository' | 'no-rule' | 'rule-ignores' };

/**
 * What a push means for a service following `source`: a ref deleted never deploys (the commit it
 * names is gone); a push of another repository (the hook was pointed at the wrong service) is
 * ignored; otherwise the first rule of the ref's kind decides.
 */
export function pushDecision(
  source: Pick<GitSourceData, 'repository' | 'rules'>,
  push: GitPush,
): PushDecision {
  if (push.deleted) return { ignored: 'deleted' };
  if (!sameRepository(source.repository, push.repositoryUrls))
    return { ignored: 'another-repository' };
  const matched = gitRefAction(source.rules, push.ref);
  if (!matched) return { ignored: 'no-rule' };
  if (matched.rule.action === 'ignore') return { ignored: 'rule-ignores' };
  return {
    deploy: matched.rule.action === 'deploy' ? 'now' : 'after-approval',
    commit: push.commit,
    refName: matched.name,
  };
}
