import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sign } from '@octokit/webhooks-methods';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import request from 'supertest';
import { data, readyService } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Repo = { full_name: string };
/** The fields of GitHub's sample `pull_request` delivery this suite changes or reads. */
interface PullRequestSample {
  action: string;
  number: number;
  pull_request: { number: number; head: { sha: string; repo: Repo | null }; base: { repo: Repo } };
  repository: { clone_url: string; ssh_url: string };
}
type Preview = { number: number; state: 'waiting' | 'live' | 'closing'; headCommit: string | null };

/** GitHub's own sample of a pull request opened: #2 of Codertocat/Hello-World. */
const examples = createRequire(import.meta.url)(
  '@octokit/webhooks-examples',
) as WebhookDefinition[];
const opened = (
  examples.find((e) => e.name === 'pull_request')!.examples as unknown as PullRequestSample[]
).find((e) => e.action === 'opened')!;
const REPOSITORY = opened.repository.clone_url;
const SAMPLE_FROM_FORK =
  opened.pull_request.head.repo?.full_name !== opened.pull_request.base.repo.full_name;
const BASE = 'preview.example.com';
const SECRET_VALUE = 'postgres://preview:hunter2-plaintext@db/app';
const commitOf = (n: number) => n.toString(16).padStart(40, 'b');

/** The sample with its head moved to `head` (and to a fork's repository, if asked). */
function githubPr(head: string, o: { number?: number; fork?: boolean; action?: string } = {}) {
  const body = structuredClone(opened);
  body.action = o.action ?? 'opened';
  body.number = body.pull_request.number = o.number ?? opened.number;
  body.pull_request.head.sha = head;
  if (o.fork) body.pull_request.head.repo = { ...body.pull_request.head.repo, full_name: 'x/y' };
  return JSON.stringify(body);
}

// As GitLab documents its Merge Request Hook (the fields Slipway reads).
const GITLAB_REPO = 'https://gitlab.example.com/acme/shop.git';
const gitlabMr = (action: string, iid: number, head: string, extra: object = {}) =>
  JSON.stringify({
    object_kind: 'merge_request',
    user: { username: 'jsmith' },
    project: {
      git_ssh_url: 'git@gitlab.example.com:acme/shop.git',
      git_http_url: GITLAB_REPO,
      web_url: 'https://gitlab.example.com/acme/shop',
    },
    object_attributes: {
      iid,
      action,
      title: 'Faster checkout',
      state: action === 'merge' ? 'merged' : 'opened',
      source_branch: 'faster-checkout',
      target_branch: 'main',
      source_project_id: 14,
      target_project_id: 14,
      last_commit: { id: head, message: 'Faster checkout' },
      ...extra,
    },
  });

// As Gitea documents its pull_request delivery.
const GITEA_REPO = 'https://gitea.example.com/acme/blog.git';
const giteaPr = (action: string, number: number, head: string) => {
  const repo = { full_name: 'acme/blog' };
  return JSON.stringify({
    action,
    number,
    pull_request: {
      number,
      title: 'New theme',
      merged: false,
      user: { login: 'gitea-user' },
      head: { sha: head, ref: 'theme', repo },
      base: { ref: 'main', repo },
    },
    repository: { ...repo, clone_url: GITEA_REPO, ssh_url: 'git@gitea.example.com:acme/blog.git' },
  });
};

const issuePaths = (res: request.Response) =>
  ((res.body.error?.data?.issues ?? []) as { path: string }[]).map((i) => i.path);

type Provider = 'github' | 'gitlab' | 'gitea';
/** The headers each provider sends with a pull request: event, delivery id, credential. */
const headersOf = async (provider: Provider, body: string, secret: string) => {
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  const signature = await sign(secret, body);
  const [event, id, credential, value] = {
    github: ['X-GitHub-Event', 'X-GitHub-Delivery', 'X-Hub-Signature-256', signature],
    gitlab: ['X-Gitlab-Event', 'X-Gitlab-Event-UUID', 'X-Gitlab-Token', secret],
    gitea: ['X-Gitea-Event', 'X-Gitea-Delivery', 'X-Gitea-Signature', hex],
  }[provider];
  const name = provider === 'gitlab' ? 'Merge Request Hook' : 'pull_request';
  return { [event]: name, [id]: randomUUID(), [credential]: value };
};
type Source = { serviceId: string; secret: string };

/** Pull request deliveries over HTTP, as providers send them and as attackers would. */
describe('pull request deliveries open, move and close previews', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let viewer: Record<string, string>;
  /** The GitHub-following service: its id and webhook secret. */
  let hub: Source;

  const settings = (extra: Record<string, unknown> = {}) => ({
    baseDomain: BASE,
    service: 'api',
    port: 80,
    limit: 2,
    env: [
      { name: 'DATABASE_URL', value: SECRET_VALUE, secret: true },
      { name: 'MODE', value: 'preview' },
    ],
    ...extra,
  });
  const setSource = (serviceId: string, repository: string, previews?: object) =>
    call(t.url, 'POST', 'setServiceGitSource', owner, { serviceId, repository, previews });
  /** A fresh service following `repository`, previews as given; its webhook secret. */
  const follower = async (name: string, repository: string, previews?: object): Promise<Source> => {
    const { serviceId } = await readyService(t.url, owner, { name });
    const answer = data<{ webhook: { secret: string } }>(
      await setSource(serviceId, repository, previews),
    );
    return { serviceId, secret: answer.webhook.secret };
  };
  const deliver = async (to: Source, provider: Provider, body: string, secret = to.secret) =>
    request(t.url)
      .post(`/api/v1/git/push/${to.serviceId}`)
      .set('Content-Type', 'application/json')
      .set(await headersOf(provider, body, secret))
      .send(body);
  const github = (body: string, secret?: string) => deliver(hub, 'github', body, secret);
  const previews = async (serviceId = hub.serviceId) =>
    data<{ previews: Preview[] }>(await call(t.url, 'GET', 'servicePreviews', owner, { serviceId }))
      .previews;
  const stateOf = async (number: number, serviceId = hub.serviceId) =>
    (await previews(serviceId)).find((p) => p.number === number)?.state;
  const act = (name: string, auth: Record<string, string>, number: number, headCommit?: string) =>
    call(t.url, 'POST', name, auth, { serviceId: hub.serviceId, number, headCommit });

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    ownerCookie = (await signUp(t.url, 'owner@example.com')).cookie;
    owner = cookieAuth(ownerCookie);
    viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    hub = await follower('api', REPOSITORY);
  });
  afterAll(() => t?.close());

  it('ignores a pull request when the source previews none', async () => {
    const res = await github(githubPr(commitOf(1)));
    expect([res.status, res.body.status]).toEqual([202, 'ignored']);
    expect(res.body.reason).toMatch(/previews no pull requests/);
    expect(await previews()).toEqual([]);
  });

  it('checks the preview settings and never shows a preview secret', async () => {
    const refused = async (previewSettings: object) => {
      const res = await setSource(hub.serviceId, REPOSITORY, previewSettings);
      expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
      return res;
    };
    const noService = await refused(settings({ service: 'nope' }));
    expect(issuePaths(noService)).toEqual(['previews.service']);
    expect(JSON.stringify(noService.body.error.data.issues)).toContain('nope');
    expect(issuePaths(await refused(settings({ baseDomain: 'Not A_Domain' })))).toContain(
      'previews.baseDomain',
    );
    expect(issuePaths(await refused(settings({ limit: 0 })))).toContain('previews.limit');
    expect(issuePaths(await refused(settings({ limit: 21 })))).toContain('previews.limit');
    expect(issuePaths(await refused(settings({ cpus: 0.01 })))).toContain('previews.cpus');

    const set = await setSource(hub.serviceId, REPOSITORY, settings());
    expect(data<{ changed: boolean }>(set).changed).toBe(true);
    expect(JSON.stringify(set.body)).not.toContain(SECRET_VALUE);
    const details = await call(t.url, 'GET', 'serviceDetails', owner, { serviceId: hub.serviceId });
    const shown = data<{ gitSource: { previews: Record<string, unknown> } }>(details);
    expect(shown.gitSource.previews).toMatchObject({
      baseDomain: BASE,
      service: 'api',
      port: 80,
      limit: 2,
      env: [
        { name: 'DATABASE_URL', secret: true, value: null },
        { name: 'MODE', secret: false, value: 'preview' },
      ],
    });
    expect(JSON.stringify(details.body)).not.toContain(SECRET_VALUE);
  });

  it('opens a preview for GitHub’s own sample, once, and only when signed', async () => {
    const body = githubPr(commitOf(2));
    const res = await github(body);
    expect([res.status, res.body]).toEqual([
      202,
      expect.objectContaining({
        status: 'preview',
        number: opened.number,
        recorded: ['PreviewOpened'],
        domain: `pr-${opened.number}.${BASE}`,
        awaitingApproval: SAMPLE_FROM_FORK,
      }),
    ]);
    expect(await previews()).toEqual([
      expect.objectContaining({
        number: opened.number,
        state: SAMPLE_FROM_FORK ? 'waiting' : 'live',
        domain: `pr-${opened.number}.${BASE}`,
        headCommit: commitOf(2),
        fromFork: SAMPLE_FROM_FORK,
      }),
    ]);
    const replay = await github(body);
    expect([replay.status, replay.body.error.data.reason]).toEqual([409, 'replayed']);
    const forged = await github(githubPr(commitOf(3)), 'whsec_guess');
    expect([forged.status, forged.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
    const unsigned = await request(t.url)
      .post(`/api/v1/git/push/${hub.serviceId}`)
      .set({ 'Content-Type': 'application/json', 'X-GitHub-Event': 'pull_request' })
      .send(body);
    expect([unsigned.status, unsigned.body.error.code]).toEqual([401, 'AUTH_REQUIRED']);
    // Nor does a pull request of another repository, or an action that moves nothing, count.
    const foreign = JSON.parse(githubPr(commitOf(4), { number: 9 })) as PullRequestSample;
    foreign.repository = { clone_url: 'https://github.com/evil/x.git', ssh_url: 'git@e:x.git' };
    const other = await github(JSON.stringify(foreign));
    expect([other.status, other.body.reason]).toEqual([202, expect.stringMatching(/another/)]);
    const labeled = await github(githubPr(commitOf(5), { number: 9, action: 'labeled' }));
    expect([labeled.status, labeled.body.status]).toEqual([202, 'ignored']);
    expect((await previews()).map((p) => p.number)).toEqual([opened.number]);
  });

  it('a fork’s pull request waits for someone who may decide approvals', async () => {
    const fork = { number: 3, fork: true };
    const res = await github(githubPr(commitOf(6), fork));
    expect([res.status, res.body.recorded, res.body.awaitingApproval]).toEqual([
      202,
      ['PreviewOpened'],
      true,
    ]);
    expect(await stateOf(3)).toBe('waiting');
    const head = commitOf(6);
    expect((await act('approveServicePreview', viewer, 3, head)).status).toBe(403);
    const { token } = await createToken(t.url, ownerCookie, ['service:read', 'service:write'], 1);
    expect((await act('approveServicePreview', bearer(token), 3, head)).status).toBe(403);
    expect(await stateOf(3)).toBe('waiting');
    // Approving names the commit looked at: another (a push landed since) is refused.
    const stale = await act('approveServicePreview', owner, 3, commitOf(5));
    expect([stale.status, stale.body.error.data.headCommit]).toEqual([409, head]);
    expect((await act('approveServicePreview', owner, 3)).status).toBe(400);
    expect(await stateOf(3)).toBe('waiting');
    expect(data(await act('approveServicePreview', owner, 3, head))).toEqual({
      serviceId: hub.serviceId,
      number: 3,
      headCommit: commitOf(6),
      approved: true,
    });
    expect(await stateOf(3)).toBe('live');
    expect(data(await act('approveServicePreview', owner, 3, head))).toMatchObject({
      approved: false,
    });
    // A push to the fork waits again.
    const pushed = await github(githubPr(commitOf(7), { ...fork, action: 'synchronize' }));
    expect(pushed.body).toMatchObject({ recorded: ['PreviewUpdated'], awaitingApproval: true });
    expect(await stateOf(3)).toBe('waiting');
  });

  let refusedAtLimit: string;
  it('refuses a preview beyond the source’s limit, waiting ones included', async () => {
    refusedAtLimit = githubPr(commitOf(8), { number: 4 });
    const res = await github(refusedAtLimit);
    expect([res.status, res.body.error.data.reason]).toEqual([409, 'preview-limit']);
    expect((await previews()).map((p) => p.number)).toEqual([opened.number, 3]);
  });

  it('closes a preview by hand, for operators only', async () => {
    expect((await act('closeServicePreview', viewer, 3)).status).toBe(403);
    expect(data(await act('closeServicePreview', owner, 3))).toMatchObject({ closed: true });
    expect(data(await act('closeServicePreview', owner, 3))).toMatchObject({ closed: false });
    expect(['live', 'waiting']).not.toContain(await stateOf(3));
    // The room it made takes the pull request refused before, redelivered as it was: a refused
    // delivery claimed nothing.
    const next = await github(refusedAtLimit);
    expect([next.status, next.body.recorded]).toEqual([202, ['PreviewOpened']]);
  });

  it('GitLab merge requests open a preview and merging closes it', async () => {
    const lab = await follower('shop', GITLAB_REPO, settings());
    const gitlab = (body: string, token?: string) => deliver(lab, 'gitlab', body, token);
    const open = await gitlab(gitlabMr('open', 5, commitOf(10)));
    expect(open.status).toBe(202);
    expect(open.body).toMatchObject({ recorded: ['PreviewOpened'], domain: `pr-5.${BASE}` });
    expect(await stateOf(5, lab.serviceId)).toBe('live');
    const wrong = await gitlab(gitlabMr('close', 5, commitOf(10)), `${lab.secret}x`);
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
    // An update without oldrev changed no code: it moves nothing.
    const retitled = await gitlab(gitlabMr('update', 5, commitOf(11)));
    expect([retitled.status, retitled.body.status]).toEqual([202, 'ignored']);
    const pushed = await gitlab(gitlabMr('update', 5, commitOf(12), { oldrev: commitOf(10) }));
    expect(pushed.body.recorded).toEqual(['PreviewUpdated']);
    const merged = await gitlab(gitlabMr('merge', 5, commitOf(12)));
    expect([merged.status, merged.body.recorded]).toEqual([202, ['PreviewClosed']]);
    expect(['live', 'waiting']).not.toContain(await stateOf(5, lab.serviceId));
  });

  it('Gitea pull requests, signed as Gitea signs them, move their preview', async () => {
    const tea = await follower('blog', GITEA_REPO, settings());
    const gitea = (body: string, secret?: string) => deliver(tea, 'gitea', body, secret);
    const open = await gitea(giteaPr('opened', 7, commitOf(13)));
    expect([open.status, open.body.recorded]).toEqual([202, ['PreviewOpened']]);
    const forged = await gitea(giteaPr('synchronized', 7, commitOf(14)), 'whsec_guess');
    expect([forged.status, forged.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
    const moved = await gitea(giteaPr('synchronized', 7, commitOf(14)));
    expect([moved.status, moved.body.recorded]).toEqual([202, ['PreviewUpdated']]);
    expect(await previews(tea.serviceId)).toEqual([
      expect.objectContaining({ number: 7, state: 'live', headCommit: commitOf(14) }),
    ]);
  });
});
