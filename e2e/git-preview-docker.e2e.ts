import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sign } from '@octokit/webhooks-methods';
import request from 'supertest';
import { data } from './support/deployments.js';
import { startEdgeSuite, type EdgeSuite } from './support/edge.js';
import { edgeRequest, until } from './support/edge-request.js';
import { startGitHost, type GitHost } from './support/git-host.js';
import { call } from './support/identity.js';
import type { TestPebble } from './support/pebble.js';
import { startEdgeAcme } from './support/edge-acme.js';
import { deploymentLog } from './support/sshd.js';
import { startStatusApi, type StatusApi } from './support/status-api.js';
import { PreviewSweep } from '../src/runner/previews/preview-sweep.js';

const PROJECT = 'site-production';
const BASE = 'preview.example.test';
const STATUS_TOKEN = 'ghp_status0123456789token';
const HOUR = 3_600_000;

interface Preview {
  number: number;
  state: 'waiting' | 'live' | 'closing';
  url: string | null;
  headCommit: string | null;
  previewServiceId: string;
  previewServiceName: string;
  status: 'active' | 'archived' | null;
  latestDeployment: { id: string; status: string; imageRef: string } | null;
}

/**
 * A preview environment per pull request on the real parts: GitHub pull_request deliveries
 * signed as GitHub signs them, the pull request's head fetched from the repository (a real sshd
 * with git-shell) by the ref the provider keeps it under, built by the real Docker engine, run as
 * a compose project of its own and served on its own domain by the edge proxy with a certificate
 * from Pebble (a real ACME CA). Closing the pull request removes it; a fork's waits for approval.
 */
describe('pull requests get previews on their own domains', () => {
  let suite: EdgeSuite;
  let pebble: TestPebble;
  let git: GitHost;
  let statusApi: StatusApi;
  let serviceId: string;
  let secret: string;
  let httpPort: number;
  let tlsPort: number;
  let firstPreview: string;

  /** The pull request's own compose file: what its preview runs (ports and all, stripped). */
  const prCompose = (version: string, extra = '') =>
    `services:\n  web:\n    image: ${suite.engine.registry}/acme/site:latest\n    ports: ["8089:80"]\n    environment:\n      DATABASE_URL: \${DATABASE_URL}\n      FROM_PULL_REQUEST: ${version}\n${extra}`;
  const commitVersion = (
    number: number,
    version: string,
    tree: { compose?: string | null; symlinks?: Record<string, string> } = {},
  ) =>
    git.commit({
      branch: 'main',
      ref: `refs/pull/${number}/head`,
      message: `Try ${version}`,
      files: {
        Dockerfile: `FROM ${suite.image('1.0.0')}\nCOPY version /www/version\n`,
        version: `${version}\n`,
        ...(tree.compose === null ? {} : { 'compose.yaml': tree.compose ?? prCompose(version) }),
      },
      symlinks: tree.symlinks,
    });
  /** A pull_request delivery as GitHub sends it; a fork's head is in another repository. */
  const pullRequest = async (
    action: string,
    number: number,
    head: string,
    options: { fork?: boolean; merged?: boolean; body?: string } = {},
  ) => {
    const base = { full_name: 'acme/site' };
    const body =
      options.body ??
      JSON.stringify({
        action,
        number,
        pull_request: {
          number,
          title: `Change ${number}`,
          merged: options.merged ?? false,
          user: { login: options.fork ? 'stranger' : 'ada' },
          head: {
            sha: head,
            ref: 'feature',
            repo: options.fork ? { full_name: 'stranger/site' } : base,
          },
          base: { ref: 'main', repo: base },
        },
        repository: { ...base, ssh_url: git.sshUrl, clone_url: git.httpUrl },
      });
    const res = await request(suite.t.url)
      .post(`/api/v1/git/push/${serviceId}`)
      .set('Content-Type', 'application/json')
      .set('X-GitHub-Event', 'pull_request')
      .set('X-GitHub-Delivery', randomUUID())
      .set('X-Hub-Signature-256', await sign(secret, body))
      .send(body);
    return Object.assign(res, { sent: body });
  };
  const previews = async () =>
    data<{ previews: Preview[] }>(
      await call(suite.t.url, 'GET', 'servicePreviews', suite.owner, { serviceId }),
    ).previews;
  /** The preview of `number` once its deployment of `commit` finished (succeeded or not). */
  const deployed = async (number: number, commit: string, outcome = 'succeeded') => {
    const preview = await until(
      async () => {
        const p = (await previews()).find((x) => x.number === number);
        const d = p?.latestDeployment;
        return d?.imageRef.endsWith(`:${commit}`) && ['succeeded', 'failed'].includes(d.status)
          ? p
          : undefined;
      },
      `the preview of #${number} at ${commit}`,
      180_000,
    );
    const log = await deploymentLog(suite.t, suite.owner, preview?.latestDeployment?.id ?? '');
    if (preview?.latestDeployment?.status !== outcome)
      throw new Error(`the preview's deployment did not end ${outcome}:\n${log}`);
    return Object.assign(preview, { log });
  };
  /** The preview's version page over HTTPS, its certificate checked against Pebble's root. */
  const page = async (number: number) =>
    edgeRequest({
      scheme: 'https',
      port: tlsPort,
      host: `pr-${number}.${BASE}`,
      path: '/version',
      ca: await pebble.issuingRoot(),
    });
  const served = (number: number, version: string) =>
    until(async () => {
      const answer = await page(number);
      return answer.status === 200 && answer.body === version ? answer : undefined;
    }, `pr-${number}.${BASE} serving ${version}`);

  beforeAll(async () => {
    const engine = (await import('./support/docker-engine.js')).dockerEngine();
    for (const p of ['site-pr-7-preview', 'site-pr-8-preview']) engine.removeProject(p);
    const edgeAcme = await startEdgeAcme(engine);
    ({ pebble, httpPort, tlsPort } = edgeAcme);
    statusApi = await startStatusApi();
    const defaults = (await import('../src/config/app-config.js')).loadConfig({});
    suite = await startEdgeSuite({
      project: PROJECT,
      publish: edgeAcme.publish,
      app: {
        config: {
          publicUrl: 'https://slipway.example.test',
          notifications: {
            ...defaults.notifications,
            addressPolicy: statusApi.policy,
            retryBaseMs: 50,
          },
        },
      },
      edge: { acme: edgeAcme.acme },
    });
    git = await startGitHost({ name: 'site' });
    const { t, owner, serverId, engine: e } = suite;
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'site',
        environment: 'production',
        serverId,
        imageRepository: `${e.registry}/acme/site`,
        // A published port and a fixed name: the production's own, never a preview's.
        compose: `services:\n  web:\n    image: ${e.registry}/acme/site:latest\n    container_name: site-web\n    environment:\n      DATABASE_URL: \${DATABASE_URL}\n`,
        env: [{ name: 'DATABASE_URL', value: 'postgres://production', secret: true }],
      }),
    ).serviceId;
    const answer = data<{ deployKey: { publicKey: string }; webhook: { secret: string } }>(
      await call(t.url, 'POST', 'setServiceGitSource', owner, {
        serviceId,
        repository: git.sshUrl,
        hostKeyFingerprint: git.fingerprint,
        rules: [{ kind: 'branch', pattern: 'main', action: 'deploy' }],
        statusProvider: 'github',
        statusApiUrl: statusApi.url,
        statusToken: STATUS_TOKEN,
        composeFile: 'compose.yaml',
        previews: {
          baseDomain: BASE,
          service: 'web',
          port: 80,
          limit: 2,
          memoryMb: 64,
          env: [{ name: 'DATABASE_URL', value: 'postgres://preview', secret: true }],
        },
      }),
    );
    git.authorize(answer.deployKey.publicKey);
    secret = answer.webhook.secret;
  }, 5 * 60_000);
  afterAll(async () => {
    for (const p of ['site-pr-7-preview', 'site-pr-8-preview']) suite?.engine.removeProject(p);
    await git?.stop();
    await suite?.stop();
    await pebble?.stop();
    statusApi?.server.close();
  });

  it('an opened pull request is built and served on pr-<n> over HTTPS, with its own settings', async () => {
    const head = commitVersion(7, 'pr-7');
    const res = await pullRequest('opened', 7, head);
    expect([res.status, res.body]).toMatchObject([
      202,
      { status: 'preview', number: 7, recorded: ['PreviewOpened'], domain: `pr-7.${BASE}` },
    ]);
    const preview = await deployed(7, head);
    expect(preview).toMatchObject({
      state: 'live',
      url: `https://pr-7.${BASE}/`,
      previewServiceName: 'site-pr-7',
      status: 'active',
    });
    firstPreview = preview.previewServiceId;
    const answer = await served(7, 'pr-7');
    expect(answer.peer).toBeTruthy();
    // Its own compose project, with the preview's variables and limits, no fixed name.
    const container = suite.engine
      .docker(['ps', '-q', '--filter', 'label=com.docker.compose.project=site-pr-7-preview'])
      .trim();
    const inspect = JSON.parse(suite.engine.docker(['inspect', container])) as {
      Name: string;
      Config: { Env: string[] };
      HostConfig: { Memory: number };
    }[];
    expect(inspect[0].Config.Env).toContain('DATABASE_URL=postgres://preview');
    // The pull request's own compose file runs, not the service's.
    expect(inspect[0].Config.Env).toContain('FROM_PULL_REQUEST=pr-7');
    expect(preview.log).toMatch(/compose\.yaml from the repository: compose\.yaml at [0-9a-f]{12}/);
    expect(inspect[0].Config.Env.join('\n')).not.toContain('production');
    expect(inspect[0].HostConfig.Memory).toBe(64 * 1024 * 1024);
    expect(inspect[0].Name).not.toBe('/site-web');
    // The provider hears where the preview is.
    const success = await until(async () => {
      const s = statusApi.seen.find((x) => x.path.endsWith(head) && x.body.state === 'success');
      return s;
    }, 'a success status');
    expect(success.body).toMatchObject({
      target_url: `https://pr-7.${BASE}/`,
      context: 'slipway/site-pr-7@preview',
    });
    // A replayed delivery moves nothing.
    const replay = await request(suite.t.url)
      .post(`/api/v1/git/push/${serviceId}`)
      .set('Content-Type', 'application/json')
      .set('X-GitHub-Event', 'pull_request')
      .set('X-GitHub-Delivery', randomUUID())
      .set('X-Hub-Signature-256', await sign(secret, res.sent))
      .send(res.sent);
    expect([replay.status, replay.body.error?.data?.reason]).toEqual([409, 'replayed']);
  }, 180_000);

  it('a push to the pull request moves its preview to the new commit', async () => {
    // A commit with a link out of the repository (here its compose file) is not built nor read;
    // one the server's policy refuses does not run; either way the preview keeps serving.
    const linked = commitVersion(7, 'linked', {
      compose: null,
      symlinks: { 'compose.yaml': '/etc/passwd' },
    });
    await pullRequest('synchronize', 7, linked);
    expect((await deployed(7, linked, 'failed')).log).toContain(
      'the commit holds a symbolic link that leads out of the repository: refused',
    );
    const privileged = commitVersion(7, 'privileged', {
      compose: prCompose('privileged', '    privileged: true\n'),
    });
    await pullRequest('synchronize', 7, privileged);
    expect((await deployed(7, privileged, 'failed')).log).toContain('does not allow');
    await served(7, 'pr-7');
    const head = commitVersion(7, 'pr-7b');
    const res = await pullRequest('synchronize', 7, head);
    expect(res.body.recorded).toEqual(['PreviewUpdated']);
    await deployed(7, head);
    await served(7, 'pr-7b');
  }, 180_000);

  it('a fork’s pull request waits for an approval, then is previewed', async () => {
    const head = commitVersion(8, 'fork-8');
    const res = await pullRequest('opened', 8, head, { fork: true });
    expect(res.body).toMatchObject({ status: 'preview', awaitingApproval: true });
    const waiting = (await previews()).find((p) => p.number === 8);
    expect(waiting).toMatchObject({ state: 'waiting', latestDeployment: null, status: null });
    // The limit (2) counts the waiting one: a third pull request is refused.
    const third = await pullRequest('opened', 9, commitVersion(9, 'pr-9'));
    expect([third.status, third.body.error?.data?.reason]).toEqual([409, 'preview-limit']);
    const approved = await call(suite.t.url, 'POST', 'approveServicePreview', suite.owner, {
      serviceId,
      number: 8,
      headCommit: head,
    });
    expect(data(approved)).toMatchObject({ approved: true, headCommit: head });
    await deployed(8, head);
    await served(8, 'fork-8');
    // A push to the fork is new code nobody looked at: it waits again, the approved one runs on.
    const pushed = await pullRequest('synchronize', 8, commitVersion(8, 'fork-8b'), { fork: true });
    expect(pushed.body).toMatchObject({ recorded: ['PreviewUpdated'], awaitingApproval: true });
    expect((await previews()).find((p) => p.number === 8)).toMatchObject({ state: 'waiting' });
    await served(8, 'fork-8');
  }, 180_000);

  it('closing a pull request removes its preview: service archived, containers gone, no route', async () => {
    const head = (await previews()).find((p) => p.number === 7)?.headCommit ?? '';
    const res = await pullRequest('closed', 7, head, { merged: true });
    expect(res.body.recorded).toEqual(['PreviewClosed']);
    await until(
      async () => {
        const gone = !(await previews()).some((p) => p.number === 7);
        return gone ? true : undefined;
      },
      'the preview torn down',
      60_000,
    );
    const project = suite.engine
      .docker(['ps', '-aq', '--filter', 'label=com.docker.compose.project=site-pr-7-preview'])
      .trim();
    expect(project).toBe('');
    const details = data<{ status: string; preview: { serviceId: string; number: number } }>(
      await call(suite.t.url, 'GET', 'serviceDetails', suite.owner, { serviceId: firstPreview }),
    );
    expect(details).toMatchObject({ status: 'archived', preview: { serviceId, number: 7 } });
    await until(async () => {
      const answer = await edgeRequest({
        scheme: 'http',
        port: httpPort,
        host: `pr-7.${BASE}`,
        path: '/',
      });
      return answer.status === 404 ? answer : undefined;
    }, 'pr-7 no longer routed');
    // The other preview is untouched.
    await served(8, 'fork-8');
  }, 180_000);

  it('a preview nothing pushed to for its time to live is torn down by the sweep', async () => {
    const sweep = suite.t.app.get(PreviewSweep);
    await sweep.sweep(new Date(Date.now() + 71 * HOUR));
    expect((await previews()).map((p) => [p.number, p.state])).toEqual([[8, 'waiting']]);
    await sweep.sweep(new Date(Date.now() + 73 * HOUR));
    await until(async () => ((await previews()).length === 0 ? true : undefined), 'no previews');
    const left = suite.engine
      .docker(['ps', '-aq', '--filter', 'label=com.docker.compose.project=site-pr-8-preview'])
      .trim();
    expect(left).toBe('');
  }, 180_000);
});
