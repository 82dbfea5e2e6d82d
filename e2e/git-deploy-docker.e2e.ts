import { randomUUID } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sign } from '@octokit/webhooks-methods';
import request from 'supertest';
import { data } from './support/deployments.js';
import {
  registerRoutedService,
  startEdgeSuite,
  traffic,
  viaEdge,
  type EdgeSuite,
} from './support/edge.js';
import { startGitHost, type GitHost } from './support/git-host.js';
import { call } from './support/identity.js';
import { freePort } from './support/ports.js';
import { ALLOW_LOOPBACK, deploymentLog, waitForDeployment } from './support/sshd.js';
import { startStatusApi, type StatusApi } from './support/status-api.js';

interface Details {
  id: string;
  status: string;
  imageRef: string;
  imageDigest: string | null;
  failedStep: string | null;
  failureReason: string | null;
  snapshot: { git: { commit: string; ref: string | null; message: string | null } | null };
}

const PROJECT = 'site-production';
const STATUS_TOKEN = 'ghp_status0123456789token';

const DOMAIN = 'site.example.test';

/**
 * From a push to a running service on the real parts: a repository served by a real sshd
 * (git-shell, the deploy key Slipway made), a GitHub push delivery signed as GitHub signs it,
 * the commit fetched and built on the server by the real Docker engine, deployed gaplessly and
 * answered through the edge proxy.
 */
describe('a push builds its commit on the server and the edge serves it', () => {
  let suite: EdgeSuite;
  let git: GitHost;
  let serviceId: string;
  let secret: string;
  let edgePort: number;
  let statusApi: StatusApi;
  const deployments: Details[] = [];
  /** The states reported for `commit`, in order, once `count` of them have arrived. */
  const statesOf = async (commit: string, count: number) => {
    const deadline = Date.now() + 20_000;
    const mine = () => statusApi.seen.filter((s) => s.path.endsWith(`/statuses/${commit}`));
    while (mine().length < count && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    return mine();
  };

  const site = () => viaEdge(edgePort, DOMAIN, '/version');
  /** The repository's Dockerfile: the test image, with its version page replaced. */
  const commitVersion = (version: string, branch = 'main') =>
    git.commit({
      branch,
      message: `Release ${version}\n\nWith a body that is not shown`,
      author: 'Ada Lovelace <ada@example.com>',
      files: {
        Dockerfile: `FROM ${suite.image('1.0.0')}\nCOPY version /www/version\n`,
        version: `${version}\n`,
      },
    });
  /** A push as GitHub sends it, for the repository the source follows. */
  const push = async (ref: string, commit: string) => {
    const body = JSON.stringify({
      ref,
      before: '0'.repeat(40),
      after: commit,
      deleted: false,
      repository: { full_name: 'acme/site', ssh_url: git.sshUrl, clone_url: git.httpUrl },
      pusher: { name: 'ada', email: 'ada@example.com' },
      head_commit: { id: commit, message: 'Release', author: { name: 'Ada Lovelace' } },
    });
    return request(suite.t.url)
      .post(`/api/v1/git/push/${serviceId}`)
      .set('Content-Type', 'application/json')
      .set('X-GitHub-Event', 'push')
      .set('X-GitHub-Delivery', randomUUID())
      .set('X-Hub-Signature-256', await sign(secret, body))
      .send(body);
  };
  const finished = async (deploymentId: string) => {
    try {
      return await waitForDeployment<Details>(
        suite.t,
        suite.owner,
        deploymentId,
        ['succeeded', 'failed'],
        120_000,
        100,
      );
    } catch (error) {
      const log = await deploymentLog(suite.t, suite.owner, deploymentId);
      throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
    }
  };

  beforeAll(async () => {
    edgePort = await freePort();
    statusApi = await startStatusApi();
    const defaults = (await import('../src/config/app-config.js')).loadConfig({});
    suite = await startEdgeSuite({
      project: PROJECT,
      publish: [`127.0.0.1:${edgePort}:80`],
      app: {
        config: {
          publicUrl: 'https://slipway.example.test',
          notifications: {
            ...defaults.notifications,
            addressPolicy: ALLOW_LOOPBACK,
            retryBaseMs: 50,
          },
        },
      },
    });
    git = await startGitHost({ name: 'site' });
    const { t, owner } = suite;
    serviceId = await registerRoutedService(suite, 'site', DOMAIN);
    const answer = data<{
      deployKey: { publicKey: string };
      webhook: { secret: string };
    }>(
      await call(t.url, 'POST', 'setServiceGitSource', owner, {
        serviceId,
        repository: git.sshUrl,
        hostKeyFingerprint: git.fingerprint,
        rules: [
          { kind: 'branch', pattern: 'main', action: 'deploy' },
          { kind: 'tag', pattern: 'v*', action: 'approval' },
        ],
        statusProvider: 'github',
        statusApiUrl: statusApi.url,
        statusToken: STATUS_TOKEN,
      }),
    );
    // As a user adds the deploy key at the repository's host.
    git.authorize(answer.deployKey.publicKey);
    secret = answer.webhook.secret;
  }, 5 * 60_000);
  afterAll(async () => {
    await git?.stop();
    await suite?.stop();
    statusApi?.server.close();
  });

  it('a push to main builds that commit over SSH and serves it', async () => {
    const commit = commitVersion('git-1');
    const res = await push('refs/heads/main', commit);
    expect([res.status, res.body.status]).toEqual([202, 'queued']);
    const done = await finished(res.body.deploymentId);
    deployments.push(done);
    expect(done.status).toBe('succeeded');
    expect(done.imageRef).toBe(`${suite.engine.registry}/acme/site:${commit}`);
    expect(done.snapshot.git).toMatchObject({ commit, ref: 'refs/heads/main' });
    expect(done.imageDigest).toMatch(/^sha256:/);
    await expect(site()).resolves.toBe('200 git-1');
    const log = await deploymentLog(suite.t, suite.owner, done.id);
    expect(log).toContain(`build: repository host key ${git.fingerprint}`);
    expect(log).toContain(`build: checked out ${commit}`);
    // The image says where it came from.
    const label = suite.engine
      .docker([
        'image',
        'inspect',
        '--format',
        '{{ index .Config.Labels "org.opencontainers.image.revision" }}',
        done.imageRef,
      ])
      .trim();
    expect(label).toBe(commit);
    // Nothing of the credential is left on the server, nor in the log.
    expect(log).not.toMatch(/PRIVATE KEY/);
    // The provider heard of it: queued, building, deployed, each linking to the deployment.
    const statuses = await statesOf(commit, 3);
    expect(statuses.map((s) => s.body.state)).toEqual(['pending', 'pending', 'success']);
    expect(statuses[2]).toEqual({
      // owner/name: the last two segments of the repository's path (…/repos/site.git).
      path: `/repos/repos/site/statuses/${commit}`,
      authorization: `Bearer ${STATUS_TOKEN}`,
      body: {
        state: 'success',
        target_url: `https://slipway.example.test/deployments/${done.id}`,
        description: 'Deployed',
        context: 'slipway/site@production',
      },
    });
  });

  it('the next push replaces it without a gap; pushes of other branches deploy nothing', async () => {
    const ignored = await push('refs/heads/experiment', commitVersion('never', 'experiment'));
    expect([ignored.status, ignored.body.status]).toEqual([202, 'ignored']);
    const commit = commitVersion('git-2');
    const load = traffic(edgePort, [DOMAIN]);
    const res = await push('refs/heads/main', commit);
    const done = await finished(res.body.deploymentId);
    await expect(site()).resolves.toBe('200 git-2');
    const { answers, failures } = await load.stop();
    deployments.push(done);
    expect(done.status).toBe('succeeded');
    // Every request during the build and the switch was answered, by one version or the other.
    expect(failures).toEqual([]);
    expect(Object.keys(answers).sort()).toEqual(['200 git-1', '200 git-2']);
    expect(suite.engine.running(PROJECT, 'web')).toEqual([
      expect.stringContaining(`acme/site:${commit}`),
    ]);
  });

  it('a rollback runs the image built before, without fetching or building again', async () => {
    const [first] = deployments;
    const res = data<{ deploymentId: string }>(
      await call(suite.t.url, 'POST', 'executeRollback', suite.owner, {
        serviceId,
        targetDeploymentId: first.id,
      }),
    );
    const done = await finished(res.deploymentId);
    expect(done.status).toBe('succeeded');
    await expect(site()).resolves.toBe('200 git-1');
    const log = await deploymentLog(suite.t, suite.owner, done.id);
    expect(log).toContain('is on this server already: not built again');
  });

  it('a build over its time limit fails, a build cancelled stops, and the old version serves', async () => {
    // A repository host that accepts connections and never says a word: the build waits.
    const held: Socket[] = [];
    const stalled = createNetServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const port = (stalled.address() as AddressInfo).port;
    const deployCommit = async (version: string) => {
      await call(suite.t.url, 'POST', 'setServiceGitSource', suite.owner, {
        serviceId,
        repository: `ssh://git@127.0.0.1:${port}/stalled/site.git`,
        hostKeyFingerprint: git.fingerprint,
      });
      return data<{ deploymentId: string }>(
        await call(suite.t.url, 'POST', 'deployServiceCommit', suite.owner, {
          serviceId,
          commit: commitVersion(version),
        }),
      ).deploymentId;
    };
    const runner = suite.t.config.runner;
    const limit = runner.buildTimeoutSeconds;
    try {
      runner.buildTimeoutSeconds = 2;
      const done = await finished(await deployCommit('late'));
      expect([done.status, done.failedStep, done.failureReason]).toEqual([
        'failed',
        'build',
        'the build ran over its time limit of 2 s',
      ]);
      await expect(site()).resolves.toBe('200 git-1');

      runner.buildTimeoutSeconds = limit;
      const deploymentId = await deployCommit('cancelled');
      // Cancelled once the build step runs (it waits on the silent host).
      const deadline = Date.now() + 30_000;
      for (;;) {
        const d = data<{ steps: { step: string }[] }>(
          await call(suite.t.url, 'GET', 'deploymentDetails', suite.owner, { deploymentId }),
        );
        if (d.steps.some((s) => s.step === 'build')) break;
        if (Date.now() > deadline) throw new Error('the build never started');
        await new Promise((r) => setTimeout(r, 100));
      }
      const cancel = await call(suite.t.url, 'POST', 'cancelDeployment', suite.owner, {
        deploymentId,
        reason: 'Not this one after all',
      });
      expect(cancel.status).toBe(200);
      const stopped = await waitForDeployment<Details>(
        suite.t,
        suite.owner,
        deploymentId,
        ['cancelled', 'failed', 'succeeded'],
        30_000,
        100,
      );
      expect(stopped.status).toBe('cancelled');
      await expect(site()).resolves.toBe('200 git-1');
    } finally {
      runner.buildTimeoutSeconds = limit;
      for (const socket of held) socket.destroy();
      stalled.close();
    }
  });

  it('a repository host presenting another key is refused, and the service keeps serving', async () => {
    const other = 'SHA256:' + 'A'.repeat(43);
    await call(suite.t.url, 'POST', 'setServiceGitSource', suite.owner, {
      serviceId,
      repository: git.sshUrl,
      hostKeyFingerprint: other,
      rules: [{ kind: 'branch', pattern: 'main', action: 'deploy' }],
      statusProvider: 'github',
      statusApiUrl: statusApi.url,
      statusToken: STATUS_TOKEN,
    });
    const commit = commitVersion('git-3');
    const res = await push('refs/heads/main', commit);
    const done = await finished(res.body.deploymentId);
    expect([done.status, done.failedStep]).toEqual(['failed', 'build']);
    const statuses = await statesOf(commit, 3);
    expect(statuses.map((s) => s.body.state)).toEqual(['pending', 'pending', 'failure']);
    const log = await deploymentLog(suite.t, suite.owner, done.id);
    expect(log).toContain(`does not present the pinned key ${other}`);
    await expect(site()).resolves.toBe('200 git-1');
  });

  it('once the source is removed, a rollback still runs an image the server has', async () => {
    await call(suite.t.url, 'POST', 'removeServiceGitSource', suite.owner, { serviceId });
    const [, second] = deployments;
    const res = data<{ deploymentId: string }>(
      await call(suite.t.url, 'POST', 'executeRollback', suite.owner, {
        serviceId,
        targetDeploymentId: second.id,
      }),
    );
    const done = await finished(res.deploymentId);
    expect(done.status).toBe('succeeded');
    await expect(site()).resolves.toBe('200 git-2');
  });
});
