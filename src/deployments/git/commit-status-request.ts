import type { CommitStatusTarget } from '../../events/git-sources.events.js';
import { parseGitRepository } from './git-repository.js';

/** A deployment's state as a commit status says it. */
export type CommitState = 'pending' | 'success' | 'failure' | 'error';

export interface CommitStatus {
  commit: string;
  state: CommitState;
  /** The deployment's page. */
  targetUrl: string;
  description: string;
  /** Which check this is, per service and environment: `slipway/api@production`. */
  context: string;
}

export interface StatusRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** GitLab names its states otherwise. */
const GITLAB_STATE: Record<CommitState, string> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  error: 'canceled',
};

/** `owner/name` of a repository address (no `.git`), or null when it has none. */
export function repositoryPath(repository: string): string | null {
  const parsed = parseGitRepository(repository);
  if ('error' in parsed) return null;
  const path = parsed.path
    .replace(/^\/+/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  return path.includes('/') ? path : null;
}

/**
 * The provider's API call that sets a commit status, the token added by the caller:
 * - GitHub: `POST {api}/repos/{owner}/{repo}/statuses/{sha}` `{state, target_url, description,
 *   context}`, `Authorization: Bearer`;
 * - Gitea/Forgejo: the same path and body, `Authorization: token`;
 * - GitLab: `POST {api}/projects/{url-encoded path}/statuses/{sha}` `{state, target_url,
 *   description, name}` (states `running`, `success`, `failed`, `canceled`), `PRIVATE-TOKEN`.
 */
export function commitStatusRequest(
  target: Pick<CommitStatusTarget, 'provider' | 'apiUrl'>,
  path: string,
  status: CommitStatus,
  token: string,
): StatusRequest {
  const base = target.apiUrl.replace(/\/+$/, '');
  const description = status.description.slice(0, 140);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Slipway',
  };
  if (target.provider === 'gitlab') {
    headers['private-token'] = token;
    return {
      url: new URL(`${base}/projects/${encodeURIComponent(path)}/statuses/${status.commit}`),
      headers,
      body: JSON.stringify({
        state: GITLAB_STATE[status.state],
        target_url: status.targetUrl,
        description,
        name: status.context,
      }),
    };
  }
  // GitHub and Gitea know owner/name only: the address's last two segments (a Gitea served
  // under a path prefix has it before them).
  const [owner, name] = path.split('/').slice(-2);
  headers.authorization = target.provider === 'github' ? `Bearer ${token}` : `token ${token}`;
  if (target.provider === 'github') headers.accept = 'application/vnd.github+json';
  return {
    url: new URL(
      `${base}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/statuses/${status.commit}`,
    ),
    headers,
    body: JSON.stringify({
      state: status.state,
      target_url: status.targetUrl,
      description,
      context: status.context,
    }),
  };
}
