import { describe, expect, it } from '@jest/globals';
import { commitStatusRequest, repositoryPath, type CommitStatus } from './commit-status-request.js';

const COMMIT = 'a'.repeat(40);
const status: CommitStatus = {
  commit: COMMIT,
  state: 'failure',
  targetUrl: 'https://slipway.example.com/deployments/d1',
  description: 'The build or deployment failed',
  context: 'slipway/api@production',
};

describe('commit status requests, as each provider documents them', () => {
  it('GitHub: repos/{owner}/{repo}/statuses/{sha} with a bearer token', () => {
    const r = commitStatusRequest(
      { provider: 'github', apiUrl: 'https://api.github.com/' },
      'acme/api',
      status,
      'ghp_x',
    );
    expect(r.url.href).toBe(`https://api.github.com/repos/acme/api/statuses/${COMMIT}`);
    expect(r.headers).toMatchObject({
      authorization: 'Bearer ghp_x',
      accept: 'application/vnd.github+json',
    });
    expect(JSON.parse(r.body)).toEqual({
      state: 'failure',
      target_url: status.targetUrl,
      description: status.description,
      context: status.context,
    });
  });

  it('Gitea: the same call under its API, with `token`, owner/name from a prefixed path', () => {
    const r = commitStatusRequest(
      { provider: 'gitea', apiUrl: 'https://git.example.com/api/v1' },
      'gitea/acme/api',
      { ...status, state: 'success' },
      'tok',
    );
    expect(r.url.pathname).toBe(`/api/v1/repos/acme/api/statuses/${COMMIT}`);
    expect(r.headers.authorization).toBe('token tok');
  });

  it('GitLab: projects/{encoded path}/statuses/{sha}, its own state names, PRIVATE-TOKEN', () => {
    const r = commitStatusRequest(
      { provider: 'gitlab', apiUrl: 'https://gitlab.com/api/v4' },
      'group/sub/api',
      { ...status, state: 'pending', description: 'x'.repeat(300) },
      'glpat',
    );
    expect(r.url.href).toBe(
      `https://gitlab.com/api/v4/projects/group%2Fsub%2Fapi/statuses/${COMMIT}`,
    );
    expect(r.headers['private-token']).toBe('glpat');
    const body = JSON.parse(r.body) as Record<string, string>;
    expect([body.state, body.name, body.description.length]).toEqual([
      'running',
      status.context,
      140,
    ]);
  });

  it('reads owner/name from every address form, and none from a bare name', () => {
    expect(repositoryPath('git@github.com:acme/api.git')).toBe('acme/api');
    expect(repositoryPath('ssh://git@gitlab.com:2222/group/sub/api.git')).toBe('group/sub/api');
    expect(repositoryPath('https://github.com/acme/api')).toBe('acme/api');
    expect(repositoryPath('https://git.example.com/api.git')).toBeNull();
  });
});
