import { COMMIT_ID, object, text } from './delivery-fields.js';
import type { GitProvider } from './git-push.js';

/** What a pull (merge) request delivery means for its preview. */
export type PullRequestAction = 'open' | 'update' | 'close';

/** A pull request as Slipway acts on it, whoever sent it. */
export interface GitPullRequest {
  provider: GitProvider;
  action: PullRequestAction;
  number: number;
  headCommit: string;
  headRef: string;
  /** The head is in another repository than the base (a fork), or in one since deleted. */
  fromFork: boolean;
  merged: boolean;
  author: string | null;
  title: string | null;
  /** Every address the delivery gives for the base repository (SSH and HTTPS). */
  repositoryUrls: string[];
}

/** The provider's event name for a pull request, by the header each sends. */
export function pullRequestEventOf(provider: GitProvider, event: string | undefined): boolean {
  return provider === 'gitlab' ? event === 'Merge Request Hook' : event === 'pull_request';
}

/** Where the provider keeps a pull request's head in the base repository (forks' too). */
export function pullRequestRef(provider: GitProvider, number: number): string {
  return provider === 'gitlab' ? `refs/merge-requests/${number}/head` : `refs/pull/${number}/head`;
}

const GITHUB_ACTIONS: Record<string, PullRequestAction> = {
  opened: 'open',
  reopened: 'open',
  ready_for_review: 'open',
  synchronize: 'update',
  closed: 'close',
};
// Gitea and Forgejo say `synchronized`.
const GITEA_ACTIONS: Record<string, PullRequestAction> = {
  ...GITHUB_ACTIONS,
  synchronized: 'update',
};
const GITLAB_ACTIONS: Record<string, PullRequestAction> = {
  open: 'open',
  reopen: 'open',
  update: 'update',
  close: 'close',
  merge: 'close',
};

const positive = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 1e9 ? value : null;

/**
 * Reads a pull request delivery as its provider sends it: GitHub's and Gitea's `pull_request`
 * (`action`, `number`, `pull_request.head/base`, `merged`), GitLab's `Merge Request Hook`
 * (`object_attributes.action`, `iid`, `last_commit`, `source_project_id`/`target_project_id`;
 * an `update` without `oldrev` changed no code). Null: an action that moves no preview (labels,
 * reviews, a title edited), or a body that is not a pull request.
 */
export function readGitPullRequest(provider: GitProvider, body: unknown): GitPullRequest | null {
  const b = object(body);
  if (provider === 'gitlab') {
    const mr = object(b.object_attributes);
    const verb = typeof mr.action === 'string' ? mr.action : '';
    const action = GITLAB_ACTIONS[verb];
    if (!action || (verb === 'update' && typeof mr.oldrev !== 'string')) return null;
    const project = object(b.project);
    return finish(provider, action, {
      number: positive(mr.iid),
      headCommit: object(mr.last_commit).id,
      headRef: mr.source_branch,
      fromFork: mr.source_project_id !== mr.target_project_id,
      merged: verb === 'merge' || mr.state === 'merged',
      author: object(b.user).username,
      title: mr.title,
      urls: [project.git_ssh_url, project.git_http_url, project.web_url],
    });
  }
  const verb = typeof b.action === 'string' ? b.action : '';
  const action = (provider === 'gitea' ? GITEA_ACTIONS : GITHUB_ACTIONS)[verb];
  if (!action) return null;
  const pr = object(b.pull_request);
  const head = object(pr.head);
  const base = object(pr.base);
  const headRepo = object(head.repo);
  const baseRepo = object(base.repo);
  const repository = object(b.repository);
  return finish(provider, action, {
    number: positive(b.number) ?? positive(pr.number),
    headCommit: head.sha,
    headRef: head.ref,
    fromFork: !headRepo.full_name || headRepo.full_name !== baseRepo.full_name,
    merged: pr.merged === true,
    author: object(pr.user).login,
    title: pr.title,
    urls: [repository.ssh_url, repository.clone_url, repository.html_url],
  });
}

function finish(
  provider: GitProvider,
  action: PullRequestAction,
  f: {
    number: number | null;
    headCommit: unknown;
    headRef: unknown;
    fromFork: boolean;
    merged: boolean;
    author: unknown;
    title: unknown;
    urls: unknown[];
  },
): GitPullRequest | null {
  const headCommit = typeof f.headCommit === 'string' ? f.headCommit : '';
  const headRef = text(f.headRef, 250);
  if (!f.number || !COMMIT_ID.test(headCommit) || !headRef) return null;
  return {
    provider,
    action,
    number: f.number,
    headCommit,
    headRef,
    fromFork: f.fromFork,
    merged: f.merged,
    author: text(f.author, 100),
    title: text(f.title, 200),
    repositoryUrls: f.urls.map((u) => text(u, 300)).filter((u): u is string => u !== null),
  };
}
