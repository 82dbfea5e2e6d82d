import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sign } from '@octokit/webhooks-methods';
import request from 'supertest';
import { allEvents, eventsText, flushRefusals } from './support/audit.js';
import { data, readyService } from './support/deployments.js';
import {
  commitOf,
  githubBody,
  githubDelivery,
  REPOSITORY,
  type GithubDelivery,
} from './support/git-push.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

// As GitLab documents its Push Hook (the fields Slipway reads), for the same repository.
const gitlabBody = (ref: string, commit: string) =>
  JSON.stringify({
    object_kind: 'push',
    ref,
    after: commit,
    user_username: 'jsmith',
    project: {
      git_ssh_url: 'git@github.com:Codertocat/Hello-World.git',
      git_http_url: REPOSITORY,
    },
    commits: [{ id: commit, message: 'Fix the checkout\n\nDetails', author: { name: 'Jo' } }],
  });

// As Gitea documents its push delivery.
const giteaBody = (ref: string, commit: string) =>
  JSON.stringify({
    ref,
    after: commit,
    repository: { clone_url: REPOSITORY, ssh_url: 'git@github.com:Codertocat/Hello-World.git' },
    pusher: { login: 'gitea-user', username: 'gitea-user' },
    head_commit: { id: commit, message: 'From Gitea', author: { name: 'Gi Tea' } },
  });

interface Queued {
  status: string;
  deploymentId: string;
  imageRef: string;
  commit: string;
  ref: string;
  approvalId?: string;
}

/** Push deliveries over HTTP, as the providers send them and as attackers would. */
describe('git push deliveries deploy what the source’s rules say', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let serviceId: string;
  let secret: string;

  const path = () => `/api/v1/git/push/${serviceId}`;
  const github = (body: string, options: GithubDelivery = {}) =>
    githubDelivery(t.url, serviceId, secret, body, options);
  const deployment = async (deploymentId: string) =>
    data<{
      imageRef: string;
      trigger: string;
      snapshot: { git: Record<string, unknown> | null };
    }>(await call(t.url, 'GET', 'deploymentDetails', owner, { deploymentId }));

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    ownerCookie = (await signUp(t.url, 'owner@example.com')).cookie;
    owner = cookieAuth(ownerCookie);
    ({ serviceId } = await readyService(t.url, owner));
    const answer = data<{ webhook: { path: string; secret: string | null } }>(
      await call(t.url, 'POST', 'setServiceGitSource', owner, {
        serviceId,
        repository: REPOSITORY,
        rules: [
          { kind: 'branch', pattern: 'master', action: 'deploy' },
          { kind: 'branch', pattern: 'feature/*', action: 'ignore' },
          { kind: 'tag', pattern: 'v*', action: 'approval' },
        ],
      }),
    );
    expect(answer.webhook.path).toBe(path());
    secret = answer.webhook.secret!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
  afterAll(() => t?.close());

  it('shows the webhook secret once: setting the source again does not', async () => {
    const again = data<{ webhook: { secret: string | null } }>(
      await call(t.url, 'POST', 'setServiceGitSource', owner, {
        serviceId,
        repository: REPOSITORY,
        rules: [
          { kind: 'branch', pattern: 'master', action: 'deploy' },
          { kind: 'branch', pattern: 'feature/*', action: 'ignore' },
          { kind: 'tag', pattern: 'v*', action: 'approval' },
        ],
      }),
    );
    expect(again.webhook.secret).toBeNull();
    const details = data<{ gitSource: { webhook: boolean } }>(
      await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }),
    );
    expect(details.gitSource.webhook).toBe(true);
    expect(JSON.stringify(details)).not.toContain(secret);
  });

  it('a GitHub push deploys its commit, built from the source, and says which commit', async () => {
    const commit = commitOf(1);
    const res = await github(githubBody('refs/heads/master', commit));
    expect(res.status).toBe(202);
    const answer = res.body as Queued;
    expect(answer).toMatchObject({
      status: 'queued',
      commit,
      ref: 'refs/heads/master',
      imageRef: `ghcr.io/acme/api:${commit}`,
    });
    const d = await deployment(answer.deploymentId);
    expect(d.trigger).toBe('hook');
    expect(d.snapshot.git).toEqual({
      repository: REPOSITORY,
      commit,
      ref: 'refs/heads/master',
      author: 'Codertocat',
      message: 'Initial commit',
      contextPath: '.',
      dockerfile: 'Dockerfile',
      composeFile: null,
      buildServerId: null,
      pushImage: false,
    });
  });

  it('reads GitHub’s form encoding, GitLab’s token and Gitea’s signature', async () => {
    const form = await github(githubBody('refs/heads/master', commitOf(2)), { form: true });
    expect([form.status, form.body.status]).toEqual([202, 'queued']);

    const gitlab = await request(t.url)
      .post(path())
      .set('Content-Type', 'application/json')
      .set('X-Gitlab-Event', 'Push Hook')
      .set('X-Gitlab-Event-UUID', randomUUID())
      .set('X-Gitlab-Token', secret)
      .send(gitlabBody('refs/heads/master', commitOf(3)));
    expect([gitlab.status, gitlab.body.status]).toEqual([202, 'queued']);
    const fromGitlab = await deployment((gitlab.body as Queued).deploymentId);
    expect(fromGitlab.snapshot.git).toMatchObject({ author: 'Jo', message: 'Fix the checkout' });

    const body = giteaBody('refs/heads/master', commitOf(4));
    const gitea = await request(t.url)
      .post(path())
      .set('Content-Type', 'application/json')
      .set('X-Gitea-Event', 'push')
      .set('X-Gitea-Delivery', randomUUID())
      .set('X-Gitea-Signature', createHmac('sha256', secret).update(body).digest('hex'))
      .send(body);
    expect([gitea.status, gitea.body.status]).toEqual([202, 'queued']);
  });

  it('a tag whose rule says approval waits for one, whatever the service’s own rule', async () => {
    const res = await github(githubBody('refs/tags/v1.2.0', commitOf(5)));
    expect([res.status, res.body.status]).toEqual([202, 'pending_approval']);
    const admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    const approved = data<{ status: string; deploymentId: string }>(
      await call(t.url, 'POST', 'approveRequest', admin, { approvalId: res.body.approvalId }),
    );
    const d = await deployment(approved.deploymentId);
    expect(d.snapshot.git).toMatchObject({ commit: commitOf(5), ref: 'refs/tags/v1.2.0' });
  });

  it('ignores what the rules do not deploy, pings, and pushes of another repository', async () => {
    const reasons = async (res: request.Response) => [res.status, res.body.status];
    expect(await reasons(await github(githubBody('refs/heads/feature/x', commitOf(6))))).toEqual([
      202,
      'ignored',
    ]);
    expect(await reasons(await github(githubBody('refs/heads/other', commitOf(7))))).toEqual([
      202,
      'ignored',
    ]);
    const deleted = githubBody('refs/heads/master', '0'.repeat(40), { deleted: true });
    expect((await github(deleted)).body.reason).toBe('the ref was deleted');
    const foreign = githubBody('refs/heads/master', commitOf(8), {
      repository: { clone_url: 'https://github.com/evil/fork.git' },
    });
    expect((await github(foreign)).body.reason).toMatch(/another repository/);
    const ping = await github(JSON.stringify({ zen: 'Keep it simple.' }), { event: 'ping' });
    expect([ping.status, ping.body.status]).toEqual([202, 'pong']);
  });

  it('refuses forged, unsigned, replayed, malformed and unknown deliveries, and audits them', async () => {
    const before = (await allEvents(t)).filter((e) => e.type === 'DeploymentTriggered').length;
    const body = githubBody('refs/heads/master', commitOf(9));
    const forged = await github(body, { secret: 'whsec_guess' });
    expect([forged.status, forged.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
    // Each refusal names the provider's setting that fixes it.
    expect(forged.body.error.message).toContain('webhook’s “Secret”');
    const wrongToken = await request(t.url)
      .post(path())
      .set('Content-Type', 'application/json')
      .set('X-Gitlab-Event', 'Push Hook')
      .set('X-Gitlab-Token', `${secret}x`)
      .send(gitlabBody('refs/heads/master', commitOf(9)));
    expect([wrongToken.status, wrongToken.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
    expect(wrongToken.body.error.message).toContain('“Secret token”');
    const unsigned = await request(t.url)
      .post(path())
      .set('Content-Type', 'application/json')
      .set('X-GitHub-Event', 'push')
      .send(body);
    expect([unsigned.status, unsigned.body.error.code]).toEqual([401, 'AUTH_REQUIRED']);
    expect(unsigned.body.error.message).toContain('webhook secret');

    const first = await github(body);
    expect(first.status).toBe(202);
    // The same bytes again, under a new delivery id: a replay.
    const replay = await github(body, { id: randomUUID() });
    expect([replay.status, replay.body.error.data.reason]).toEqual([409, 'replayed']);

    const notJson = await github('{"ref": ');
    expect([notJson.status, notJson.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    const text = await request(t.url).post(path()).set('Content-Type', 'text/plain').send('hello');
    expect(text.status).toBe(400);
    const unknown = await request(t.url)
      .post(`/api/v1/git/push/${randomUUID()}`)
      .set('Content-Type', 'application/json')
      .set('X-Hub-Signature-256', await sign(secret, body))
      .send(body);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const notAnId = await request(t.url)
      .post('/api/v1/git/push/not-an-id')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(notAnId.status).toBe(404);
    const tooBig = await github(
      githubBody('refs/heads/master', commitOf(10), { pad: 'x'.repeat(6 * 1024 * 1024) }),
    );
    expect([tooBig.status, tooBig.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);

    await flushRefusals(t);
    const events = await allEvents(t);
    expect(events.filter((e) => e.type === 'DeploymentTriggered').length).toBe(before + 1);
    const refused = events.filter(
      (e) =>
        (e.type === 'AccessDenied' || e.type === 'CommandRejected') &&
        e.data.target === 'POST /api/v1/git/push/:serviceId',
    );
    expect(refused.map((e) => e.data.code)).toEqual(
      expect.arrayContaining(['TOKEN_INVALID', 'AUTH_REQUIRED', 'CONFLICT', 'BAD_REQUEST']),
    );
    const forgedRecord = refused.find((e) => e.data.code === 'TOKEN_INVALID')!;
    expect(forgedRecord.metadata.actor.principalId).toBe(serviceId);
    // The secret never reaches the store in the clear.
    expect(await eventsText(t)).not.toContain(secret);
  });

  it('a commit can be deployed by hand, by a deployer whose token may start deploys', async () => {
    const commit = commitOf(11);
    const res = await call(t.url, 'POST', 'deployServiceCommit', owner, {
      serviceId,
      commit,
      ref: 'refs/heads/master',
    });
    const answer = data<Queued>(res);
    expect(answer).toMatchObject({ status: 'queued', imageRef: `ghcr.io/acme/api:${commit}` });
    expect((await deployment(answer.deploymentId)).snapshot.git).toMatchObject({
      commit,
      ref: 'refs/heads/master',
      author: null,
    });
    const short = await call(t.url, 'POST', 'deployServiceCommit', owner, {
      serviceId,
      commit: 'abc123',
    });
    expect(short.status).toBe(400);
    const { token } = await createToken(t.url, ownerCookie, ['service:read'], 1);
    const readOnly = await call(t.url, 'POST', 'deployServiceCommit', bearer(token), {
      serviceId,
      commit,
    });
    expect(readOnly.status).toBe(403);
    const { serviceId: plain } = await readyService(t.url, owner, { name: 'plain' });
    const noSource = await call(t.url, 'POST', 'deployServiceCommit', owner, {
      serviceId: plain,
      commit,
    });
    expect([noSource.status, noSource.body.error.code]).toEqual([409, 'CONFLICT']);
  });

  it('limits refused deliveries apart: a stranger cannot use up the provider’s budget', async () => {
    const body = githubBody('refs/heads/feature/y', commitOf(12));
    const answers: request.Response[] = [];
    for (let i = 0; i < 62; i++) answers.push(await github(body, { secret: null }));
    const statuses = answers.map((a) => a.status);
    // The earlier tests' refused deliveries count too: 60 a minute, whoever sends them.
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThan(0);
    expect(statuses.slice(0, limited).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(limited).every((s) => s === 429)).toBe(true);
    expect(answers[limited].body.error.code).toBe('RATE_LIMITED');
    expect(Number(answers[limited].headers['retry-after'])).toBeGreaterThan(0);
    // The provider's signed push still deploys.
    const signed = await github(githubBody('refs/heads/master', commitOf(13)));
    expect([signed.status, signed.body.status]).toEqual([202, 'queued']);
  });
});
