import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { pullRequestEventOf, readGitPullRequest } from './git-pull-request.js';

/** GitHub's own sample `pull_request` deliveries. */
const examples = createRequire(import.meta.url)(
  '@octokit/webhooks-examples',
) as WebhookDefinition[];
const githubPulls = examples.find((e) => e.name === 'pull_request')!.examples as Record<
  string,
  unknown
>[];
const github = (action: string) => githubPulls.find((p) => p.action === action)!;
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';

// As GitLab documents its Merge Request Hook (the fields Slipway reads).
const gitlab = (action: string, extra: Record<string, unknown> = {}) => ({
  object_kind: 'merge_request',
  user: { username: 'root' },
  project: {
    git_ssh_url: 'git@example.com:gitlabhq/gitlab-test.git',
    git_http_url: 'http://example.com/gitlabhq/gitlab-test.git',
  },
  object_attributes: {
    iid: 1,
    action,
    title: 'MS-Viewport',
    source_branch: 'ms-viewport',
    source_project_id: 14,
    target_project_id: 14,
    state: action === 'merge' ? 'merged' : 'opened',
    last_commit: { id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7' },
    ...extra,
  },
});

// As Gitea documents its pull_request delivery.
const gitea = (action: string, headRepo = 'gitea/webhooks') => ({
  action,
  number: 3,
  pull_request: {
    number: 3,
    title: 'Fix the docs',
    user: { login: 'gitea-user' },
    merged: false,
    head: { ref: 'docs', sha: 'b'.repeat(40), repo: { full_name: headRepo } },
    base: { ref: 'main', repo: { full_name: 'gitea/webhooks' } },
  },
  repository: { clone_url: 'http://localhost:3000/gitea/webhooks.git' },
});

describe('reading pull request deliveries', () => {
  it('reads GitHub’s samples: opened and reopened open, synchronize updates, closed closes', () => {
    expect(readGitPullRequest('github', github('opened'))).toEqual({
      provider: 'github',
      action: 'open',
      number: 2,
      headCommit: HEAD,
      headRef: 'changes',
      fromFork: false,
      merged: false,
      author: 'Codertocat',
      title: 'Update the README with new information.',
      repositoryUrls: [
        'git@github.com:Codertocat/Hello-World.git',
        'https://github.com/Codertocat/Hello-World.git',
        'https://github.com/Codertocat/Hello-World',
      ],
    });
    expect(
      ['reopened', 'synchronize', 'closed'].map(
        (a) => readGitPullRequest('github', github(a))?.action,
      ),
    ).toEqual(['open', 'update', 'close']);
  });

  it('moves no preview for labels, reviews or edits', () => {
    expect(readGitPullRequest('github', github('labeled'))).toBeNull();
    expect(readGitPullRequest('gitlab', gitlab('update'))).toBeNull();
    expect(readGitPullRequest('gitea', gitea('label_updated'))).toBeNull();
  });

  it('tells a fork’s pull request from the repository’s own', () => {
    const forked = structuredClone(github('opened')) as {
      pull_request: { head: { repo: { full_name: string } | null } };
    };
    forked.pull_request.head.repo = { full_name: 'someone/Hello-World' };
    expect(readGitPullRequest('github', forked)?.fromFork).toBe(true);
    forked.pull_request.head.repo = null;
    expect(readGitPullRequest('github', forked)?.fromFork).toBe(true);
    expect(readGitPullRequest('gitea', gitea('opened', 'someone/webhooks'))?.fromFork).toBe(true);
    expect(readGitPullRequest('gitlab', gitlab('open', { source_project_id: 99 }))?.fromFork).toBe(
      true,
    );
  });

  it('reads GitLab’s merge requests: a push is an update with oldrev, a merge closes', () => {
    const pushed = readGitPullRequest('gitlab', gitlab('update', { oldrev: 'c'.repeat(40) }));
    expect(pushed).toMatchObject({ action: 'update', number: 1, headRef: 'ms-viewport' });
    expect(readGitPullRequest('gitlab', gitlab('merge'))).toMatchObject({
      action: 'close',
      merged: true,
    });
  });

  it('reads Gitea’s synchronized as an update', () => {
    expect(readGitPullRequest('gitea', gitea('synchronized'))).toMatchObject({
      action: 'update',
      number: 3,
      headCommit: 'b'.repeat(40),
      author: 'gitea-user',
    });
  });

  it('answers null for what is not a pull request', () => {
    expect(readGitPullRequest('github', { action: 'opened' })).toBeNull();
    expect(
      readGitPullRequest('github', { ...github('opened'), number: -1, pull_request: {} }),
    ).toBeNull();
    expect(readGitPullRequest('gitlab', 'text')).toBeNull();
  });

  it('knows each provider’s event name', () => {
    expect(pullRequestEventOf('github', 'pull_request')).toBe(true);
    expect(pullRequestEventOf('gitea', 'pull_request')).toBe(true);
    expect(pullRequestEventOf('gitlab', 'Merge Request Hook')).toBe(true);
    expect(pullRequestEventOf('github', 'push')).toBe(false);
  });
});
