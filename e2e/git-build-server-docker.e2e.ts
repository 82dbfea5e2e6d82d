import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sign } from '@octokit/webhooks-methods';
import request from 'supertest';
import { data } from './support/deployments.js';
import {
  dockerEngine,
  stopSecondEngine,
  type DockerEngine,
  type SecondEngine,
} from './support/docker-engine.js';
import { registerRoutedService, startEdgeSuite, viaEdge, type EdgeSuite } from './support/edge.js';
import { startGitHost, type GitHost } from './support/git-host.js';
import { call } from './support/identity.js';
import { freePort } from './support/ports.js';
import {
  deploymentLog,
  registerLoopbackServer,
  startSshd,
  waitForDeployment,
  type TestSshd,
} from './support/sshd.js';

const PROJECT = 'app-production';
const DOMAIN = 'app.example.test';
/** The build server's own engine, beside the one the service's server runs on. */
const BUILD_ENGINE: SecondEngine = { dir: '/tmp/slipway-docker-build', registryPort: 5100 };

interface Details {
  id: string;
  status: string;
  failureReason: string | null;
}

/**
 * Commits built on a build server of their own (a second Docker engine behind a second sshd),
 * then copied to the service's server (`docker save` | `docker load`) or pushed to the registry
 * and pulled there. The two engines share nothing: what runs on the service's server came by
 * the way under test.
 */
describe('a build server builds the commit, and the service’s server runs it', () => {
  let suite: EdgeSuite;
  let buildEngine: DockerEngine;
  let builder: TestSshd;
  let builderId: string;
  let git: GitHost;
  let serviceId: string;
  let secret: string;
  let edgePort: number;

  const image = (commit: string) => `${suite.engine.registry}/acme/app:${commit}`;
  const commitVersion = (version: string) =>
    git.commit({
      branch: 'main',
      message: `Release ${version}`,
      files: {
        Dockerfile: `FROM ${suite.image('1.0.0')}\nCOPY version /www/version\n`,
        version: `${version}\n`,
      },
    });
  const setSource = async (pushImage: boolean, composeFile?: string) => {
    const answer = data<{ deployKey: { publicKey: string }; webhook: { secret: string | null } }>(
      await call(suite.t.url, 'POST', 'setServiceGitSource', suite.owner, {
        serviceId,
        repository: git.sshUrl,
        hostKeyFingerprint: git.fingerprint,
        rules: [{ kind: 'branch', pattern: 'main', action: 'deploy' }],
        buildServerId: builderId,
        pushImage,
        composeFile,
      }),
    );
    return answer;
  };
  const pushAndWait = async (commit: string) => {
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      after: commit,
      repository: { ssh_url: git.sshUrl },
      head_commit: { id: commit, message: 'Release', author: { name: 'Ada' } },
    });
    const res = await request(suite.t.url)
      .post(`/api/v1/git/push/${serviceId}`)
      .set('Content-Type', 'application/json')
      .set('X-GitHub-Event', 'push')
      .set('X-GitHub-Delivery', randomUUID())
      .set('X-Hub-Signature-256', await sign(secret, body))
      .send(body);
    expect([res.status, res.body.status]).toEqual([202, 'queued']);
    const id = res.body.deploymentId as string;
    try {
      return await waitForDeployment<Details>(
        suite.t,
        suite.owner,
        id,
        ['succeeded', 'failed'],
        120_000,
        100,
      );
    } catch (error) {
      const log = await deploymentLog(suite.t, suite.owner, id);
      throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
    }
  };
  /** The docker subcommands a server ran since `from` calls (image and compose verbs). */
  const verbs = (sshd: TestSshd, from: number) =>
    sshd
      .dockerCalls()
      .slice(from)
      .map((args) => (args[0] === 'compose' ? `compose ${args[args.length - 1]}` : args[0]));

  beforeAll(async () => {
    edgePort = await freePort();
    suite = await startEdgeSuite({ project: PROJECT, publish: [`127.0.0.1:${edgePort}:80`] });
    buildEngine = dockerEngine(BUILD_ENGINE);
    builder = await startSshd({ engine: buildEngine });
    builderId = await registerLoopbackServer(suite.t.url, suite.owner, builder, 'builder');
    git = await startGitHost({ name: 'app' });
    serviceId = await registerRoutedService(suite, 'app', DOMAIN);
    const answer = await setSource(false);
    git.authorize(answer.deployKey.publicKey);
    secret = answer.webhook.secret!;
  }, 5 * 60_000);
  afterAll(async () => {
    await git?.stop();
    await builder?.stop();
    await suite?.stop();
    if (buildEngine) stopSecondEngine(BUILD_ENGINE);
  });

  it('builds on the build server and copies the image to the service’s server', async () => {
    const commit = commitVersion('built-elsewhere');
    const [targetFrom, builderFrom] = [suite.sshd, builder].map((s) => s.dockerCalls().length);
    const done = await pushAndWait(commit);
    expect(done.status).toBe('succeeded');
    await expect(viaEdge(edgePort, DOMAIN, '/version')).resolves.toBe('200 built-elsewhere');
    expect(verbs(builder, builderFrom)).toEqual(expect.arrayContaining(['build', 'save']));
    const onTarget = verbs(suite.sshd, targetFrom);
    expect(onTarget).toContain('load');
    expect(onTarget).not.toContain('build');
    // The build server keeps its image; the service's server has it only by the copy.
    expect(buildEngine.docker(['image', 'ls', '-q', image(commit)]).trim()).not.toBe('');
    const log = await deploymentLog(suite.t, suite.owner, done.id);
    expect(log).toMatch(/connect: connected to the build server /);
    expect(log).toMatch(
      new RegExp(`transfer-image: copied .*:${commit} from the build server \\(\\d+ bytes\\)`),
    );
  });

  it('or pushes it to the service’s registry, and the service’s server pulls it', async () => {
    await setSource(true);
    const commit = commitVersion('pushed');
    const [targetFrom, builderFrom] = [suite.sshd, builder].map((s) => s.dockerCalls().length);
    const done = await pushAndWait(commit);
    expect(done.status).toBe('succeeded');
    await expect(viaEdge(edgePort, DOMAIN, '/version')).resolves.toBe('200 pushed');
    expect(verbs(builder, builderFrom)).toEqual(expect.arrayContaining(['build', 'push']));
    const onTarget = verbs(suite.sshd, targetFrom);
    expect(onTarget).toContain('compose pull');
    expect(onTarget).not.toContain('load');
    const tags = (await (
      await fetch(`http://${suite.engine.registry}/v2/acme/app/tags/list`)
    ).json()) as { tags: string[] };
    expect(tags.tags).toContain(commit);
  });

  it('builds a repository compose file’s services there too, and copies each image', async () => {
    await setSource(false, 'compose.yaml');
    const commit = git.commit({
      branch: 'main',
      message: 'Release from compose',
      files: {
        'compose.yaml': 'services:\n  web:\n    build: ./site\n',
        'site/Dockerfile': `FROM ${suite.image('1.0.0')}\nCOPY version /www/version\n`,
        'site/version': 'compose-built-elsewhere\n',
      },
    });
    const [targetFrom, builderFrom] = [suite.sshd, builder].map((s) => s.dockerCalls().length);
    const done = await pushAndWait(commit);
    expect([done.status, done.failureReason]).toEqual(['succeeded', null]);
    await expect(viaEdge(edgePort, DOMAIN, '/version')).resolves.toBe(
      '200 compose-built-elsewhere',
    );
    expect(verbs(builder, builderFrom)).toContain('save');
    const onTarget = verbs(suite.sshd, targetFrom);
    expect(onTarget).toContain('load');
    const builds = (sshd: TestSshd, from: number) =>
      sshd
        .dockerCalls()
        .slice(from)
        .filter((args) => args[0] === 'compose' && args.includes('build'));
    expect(builds(builder, builderFrom)).toHaveLength(1);
    expect(builds(suite.sshd, targetFrom)).toEqual([]);
    const log = await deploymentLog(suite.t, suite.owner, done.id);
    expect(log).toContain(`copied ${image(commit)}-web from the build server`);
  });
});
