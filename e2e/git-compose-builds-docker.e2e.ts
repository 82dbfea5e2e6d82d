import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { registerRoutedService, startEdgeSuite, viaEdge, type EdgeSuite } from './support/edge.js';
import { startGitHost, type GitHost } from './support/git-host.js';
import { call } from './support/identity.js';
import { freePort } from './support/ports.js';
import { deploymentLog, waitForDeployment } from './support/sshd.js';

const PROJECT = 'shop-production';
const DOMAIN = 'shop.example.test';

interface Details {
  id: string;
  status: string;
  failedStep: string | null;
  failureReason: string | null;
}

/**
 * A repository whose compose file builds its services (`build:` without `image:`), the commonest
 * shape of a real-world compose file: each service built from the commit's checkout by the real
 * Docker engine over a real sshd, with Compose's own reading of its build section (a context
 * above the file, a Dockerfile by name, build arguments from the service's variables), then
 * served by the edge proxy. The repository has no Dockerfile of its own.
 */
describe('a repository compose file whose services build their images', () => {
  let suite: EdgeSuite;
  let git: GitHost;
  let serviceId: string;
  let edgePort: number;

  const site = () => viaEdge(edgePort, DOMAIN, '/version');
  /** The compose file lives in deploy/, its services' sources beside it at the root. */
  const commit = (version: string, compose: string) =>
    git.commit({
      branch: 'main',
      message: `Release ${version}`,
      files: {
        'deploy/compose.yaml': compose,
        'web/web.Dockerfile': `FROM ${suite.image('1.0.0')}\nARG RELEASE\nLABEL release=$RELEASE\nCOPY version /www/version\n`,
        'web/version': `${version}\n`,
        'worker/Dockerfile': `FROM ${suite.image('1.0.0')}\nCOPY job /job\n`,
        'worker/job': 'work\n',
      },
    });
  const SHOP = `services:
  web:
    build:
      context: ../web
      dockerfile: web.Dockerfile
      args: {RELEASE: "\${RELEASE}"}
  worker:
    build: ../worker
`;
  const deploy = async (sha: string) => {
    const id = data<{ deploymentId: string }>(
      await call(suite.t.url, 'POST', 'deployServiceCommit', suite.owner, {
        serviceId,
        commit: sha,
      }),
    ).deploymentId;
    try {
      const done = await waitForDeployment<Details>(
        suite.t,
        suite.owner,
        id,
        ['succeeded', 'failed'],
        120_000,
        100,
      );
      return { ...done, log: await deploymentLog(suite.t, suite.owner, id) };
    } catch (error) {
      const log = await deploymentLog(suite.t, suite.owner, id);
      throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
    }
  };
  const setRelease = (value: string) =>
    call(suite.t.url, 'POST', 'updateService', suite.owner, {
      serviceId,
      setEnv: [{ name: 'RELEASE', value }],
    });

  beforeAll(async () => {
    edgePort = await freePort();
    suite = await startEdgeSuite({ project: PROJECT, publish: [`127.0.0.1:${edgePort}:80`] });
    git = await startGitHost({ name: 'shop' });
    const { t, owner } = suite;
    serviceId = await registerRoutedService(suite, 'shop', DOMAIN);
    const answer = data<{ deployKey: { publicKey: string } }>(
      await call(t.url, 'POST', 'setServiceGitSource', owner, {
        serviceId,
        repository: git.sshUrl,
        hostKeyFingerprint: git.fingerprint,
        composeFile: 'deploy/compose.yaml',
      }),
    );
    git.authorize(answer.deployKey.publicKey);
  }, 5 * 60_000);
  afterAll(async () => {
    await git?.stop();
    await suite?.stop();
  });

  it('builds each service from the checkout as Compose reads it, and serves it', async () => {
    await setRelease('r1');
    const sha = commit('built-by-compose', SHOP);
    const done = await deploy(sha);
    expect([done.status, done.failureReason]).toEqual(['succeeded', null]);
    await expect(site()).resolves.toBe('200 built-by-compose');
    const web = `${suite.engine.registry}/acme/shop:${sha}-web`;
    expect(suite.engine.running(PROJECT, 'web')).toEqual([expect.stringContaining(web)]);
    // Its build arguments are the service's variables.
    const label = ['image', 'inspect', '--format', '{{ index .Config.Labels "release" }}', web];
    expect(suite.engine.docker(label).trim()).toBe('r1');
    expect(
      suite.engine.docker(['image', 'ls', '-q', `${web.replace(/-web$/, '-worker')}`]),
    ).not.toBe('');
    expect(done.log).toContain("only the compose file's services are built");
    expect(done.log).toContain('building web, worker from the repository');
    // The checkout and the build's file (it holds the service's values) are gone.
    const dir = join(suite.sshd.remoteDir, PROJECT, done.id);
    expect(existsSync(join(dir, 'compose.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'git'))).toBe(false);
    expect(existsSync(join(dir, 'compose.build.json'))).toBe(false);
  });

  it('a deployment of the same commit again runs the images it built, building nothing', async () => {
    const sha = commit('again', SHOP);
    expect((await deploy(sha)).status).toBe('succeeded');
    const again = await deploy(sha);
    expect(again.status).toBe('succeeded');
    expect(again.log).toMatch(/:[0-9a-f]{40}-web is on this server already: not built again/);
    expect(again.log).not.toContain('building web');
  });

  it('a build that reads outside the repository, or one the policy forbids, is refused', async () => {
    // Above the repository's root: the deployment's own files, other deployments' .env files.
    const escape = commit(
      '3',
      `services:\n  web:\n    build: {context: ../.., dockerfile: web/web.Dockerfile}\n`,
    );
    const judged = await deploy(escape);
    expect([judged.status, judged.failedStep]).toEqual(['failed', 'write-compose']);
    expect(judged.failureReason).toMatch(/sensitiveHostPaths/);
    // A policy that allows sensitive host paths allows no way out of the checkout.
    await call(suite.t.url, 'POST', 'setServerComposePolicy', suite.owner, {
      serverId: suite.serverId,
      allow: ['sensitiveHostPaths'],
    });
    const outside = await deploy(escape);
    await call(suite.t.url, 'POST', 'setServerComposePolicy', suite.owner, {
      serverId: suite.serverId,
      allow: [],
    });
    expect([outside.status, outside.failedStep]).toEqual(['failed', 'write-compose']);
    expect(outside.failureReason).toMatch(
      /builds from \.\., \.\.\/web\/web\.Dockerfile: outside the repository$/,
    );
    const hostNetwork = await deploy(
      commit('4', `services:\n  web:\n    build: {context: ../web, network: host}\n`),
    );
    expect([hostNetwork.status, hostNetwork.failedStep]).toEqual(['failed', 'write-compose']);
    expect(hostNetwork.failureReason).toMatch(/hostNetwork/);
    expect(hostNetwork.log).not.toContain('building web');
    // A link in the commit that leads out of it is not followed by the build (nor a mount).
    const linked = await deploy(
      git.commit({
        branch: 'main',
        message: 'Release 5',
        files: {
          'deploy/compose.yaml': `services:\n  web:\n    build: {context: ../leak, dockerfile_inline: "FROM scratch\\nCOPY . /stolen"}\n`,
        },
        symlinks: { leak: '../../..' },
      }),
    );
    expect([linked.status, linked.failedStep]).toEqual(['failed', 'build']);
    expect(linked.log).toContain('leads out of the repository: refused');
    expect(linked.log).not.toContain('building web');
    // What served before serves still.
    await expect(site()).resolves.toBe('200 again');
  });
});
