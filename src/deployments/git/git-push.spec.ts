import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import type { GitRefRule } from '../../events/git-sources.events.js';
import { pushDecision, pushEventOf, readGitPush } from './git-push.js';

/** GitHub's own sample `push` deliveries (the npm package the docs are generated from). */
const examples = createRequire(import.meta.url)(
  '@octokit/webhooks-examples',
) as WebhookDefinition[];
const githubPushes = examples.find((e) => e.name === 'push')!.examples as unknown[];
const created = (ref: string) =>
  githubPushes.find((p) => {
    const push = p as { ref: string; deleted: boolean };
    return push.ref === ref && !push.deleted;
  })!;
const deletedTag = githubPushes.find((p) => (p as { deleted: boolean }).deleted)!;

// As GitLab documents its Push Hook body (the fields Slipway reads, values from its example).
const gitlabPush = {
  object_kind: 'push',
  before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
  after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
  ref: 'refs/heads/master',
  checkout_sha: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
  user_username: 'jsmith',
  project: {
    web_url: 'http://example.com/mike/diaspora',
    git_ssh_url: 'git@example.com:mike/diaspora.git',
    git_http_url: 'http://example.com/mike/diaspora.git',
  },
  commits: [
    {
      id: 'b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327',
      message:
        'Update Catalan translation to e38cb41.\n\nSee https://gitlab.com/gitlab-org/gitlab for more information',
      author: { name: 'Jordi Mallach', email: 'jordi@softcatala.org' },
    },
    {
      id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      message: 'fixed readme',
      author: { name: 'GitLab dev user', email: 'gitlabdev@dv6700.(none)' },
    },
  ],
};

// As Gitea and Forgejo document their push body.
const giteaPush = {
  ref: 'refs/tags/v1.2.0',
  before: '28e1879d029cb852e4844d9c718537df08844e03',
  after: 'bffeb74224043ba2feb48d137756c8a9331c449a',
  compare_url: 'https://gitea.example.com/gitea/webhooks/compare/28e1879d...bffeb742',
  head_commit: {
    id: 'bffeb74224043ba2feb48d137756c8a9331c449a',
    message: 'Webhooks Yay!',
    author: { name: 'Gitea', email: 'someone@gitea.io', username: 'gitea' },
  },
  repository: {
    html_url: 'https://gitea.example.com/gitea/webhooks',
    ssh_url: 'ssh://gitea@gitea.example.com:2222/gitea/webhooks.git',
    clone_url: 'https://gitea.example.com/gitea/webhooks.git',
  },
  pusher: { login: 'gitea', username: 'gitea' },
};

const rules: GitRefRule[] = [
  { kind: 'branch', pattern: 'master', action: 'deploy' },
  { kind: 'tag', pattern: 'v*', action: 'approval' },
  { kind: 'tag', pattern: 'simple-*', action: 'deploy' },
];

describe('push deliveries as the providers send them', () => {
  it('knows each provider’s push event header', () => {
    expect(pushEventOf('github', 'push')).toBe(true);
    expect(pushEventOf('github', 'ping')).toBe(false);
    expect(pushEventOf('gitlab', 'Tag Push Hook')).toBe(true);
    expect(pushEventOf('gitlab', 'Merge Request Hook')).toBe(false);
    expect(pushEventOf('gitea', 'push')).toBe(true);
  });

  it('reads GitHub’s sample pushes, and deploys a pushed branch by its rule', () => {
    const push = readGitPush('github', created('refs/heads/master'))!;
    expect(push).toMatchObject({
      ref: 'refs/heads/master',
      // The push created the branch: GitHub says it moved from all zeros.
      before: null,
      deleted: false,
      repositoryUrls: expect.arrayContaining(['git@github.com:Codertocat/Hello-World.git']),
      message: 'Initial commit',
    });
    expect(push.commit).toMatch(/^[0-9a-f]{40}$/);
    const source = { repository: 'https://github.com/codertocat/hello-world', rules };
    expect(pushDecision(source, push)).toEqual({
      deploy: 'now',
      commit: push.commit,
      refName: 'master',
    });
  });

  it('never deploys a deleted tag, though a rule names it', () => {
    const push = readGitPush('github', deletedTag)!;
    expect(push.deleted).toBe(true);
    const source = { repository: 'git@github.com:Codertocat/Hello-World.git', rules };
    expect(pushDecision(source, push)).toEqual({ ignored: 'deleted' });
    expect(
      pushDecision(source, readGitPush('github', created('refs/tags/simple-tag'))!),
    ).toMatchObject({
      deploy: 'now',
      refName: 'simple-tag',
    });
  });

  it('reads GitLab’s Push Hook: the head commit’s first line and author', () => {
    const push = readGitPush('gitlab', gitlabPush)!;
    expect(push).toMatchObject({
      commit: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
      pusher: 'jsmith',
      message: 'fixed readme',
      author: 'GitLab dev user',
    });
    expect(
      pushDecision({ repository: 'git@example.com:mike/diaspora.git', rules }, push),
    ).toMatchObject({
      deploy: 'now',
    });
  });

  it('reads Gitea’s push and waits for an approval where the rule says so', () => {
    const push = readGitPush('gitea', giteaPush)!;
    expect(push.before).toBe('28e1879d029cb852e4844d9c718537df08844e03');
    const source = { repository: 'https://gitea.example.com/gitea/webhooks.git', rules };
    expect(pushDecision(source, push)).toEqual({
      deploy: 'after-approval',
      commit: 'bffeb74224043ba2feb48d137756c8a9331c449a',
      refName: 'v1.2.0',
    });
  });

  it('ignores another repository, refs no rule names, and bodies that are not pushes', () => {
    const push = readGitPush('gitea', giteaPush)!;
    expect(
      pushDecision({ repository: 'https://gitea.example.com/gitea/other.git', rules }, push),
    ).toEqual({
      ignored: 'another-repository',
    });
    const source = { repository: 'https://gitea.example.com/gitea/webhooks.git', rules: [] };
    expect(pushDecision(source, push)).toEqual({ ignored: 'no-rule' });
    const ignoring = {
      ...source,
      rules: [{ kind: 'tag' as const, pattern: '*', action: 'ignore' as const }],
    };
    expect(pushDecision(ignoring, push)).toEqual({ ignored: 'rule-ignores' });
    expect(readGitPush('github', { zen: 'Design for failure.', hook_id: 1 })).toBeNull();
    expect(readGitPush('github', { ref: 'refs/heads/main', after: 'not-a-sha' })).toBeNull();
    expect(readGitPush('github', { ref: 'refs/pull/1/head', after: 'a'.repeat(40) })).toBeNull();
    expect(readGitPush('gitlab', null)).toBeNull();
  });

  it('keeps control characters out of what it reads', () => {
    const push = readGitPush('gitea', {
      ...giteaPush,
      head_commit: {
        ...giteaPush.head_commit,
        message: 'fix\u001b[31m red\u0007 bell \u202egnp.exe\nsecond line',
      },
    })!;
    expect(push.message).toBe('fix [31m red bell gnp.exe');
  });
});
