import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sign } from '@octokit/webhooks-methods';
import request from 'supertest';
import { eventsText } from './support/audit.js';
import { data } from './support/deployments.js';
import { startEdgeSuite, viaEdge, type EdgeSuite } from './support/edge.js';
import { startGitHost, type TlsGitHost } from './support/git-host.js';
import { call } from './support/identity.js';
import { freePort } from './support/ports.js';
import { deploymentLog, waitForDeployment } from './support/sshd.js';

interface Details {
  id: string;
  status: string;
  imageRef: string;
  imageDigest: string | null;
  failedStep: string | null;
  snapshot: { git: { commit: string; ref: string | null } | null };
}

const PROJECT = 'docs-production';
const DOMAIN = 'docs.example.test';
const TOKEN = 'tok-docs-read-0123456789abcdef';
const WRONG_TOKEN = 'tok-docs-revoked-9876543210fedcba';
/** What git sends for `git:<token>` (the user Slipway presents a token under by default). */
const basic = (token: string) => Buffer.from(`git:${token}`).toString('base64');

/**
 * From a push to a running service, the repository read over HTTPS with a token, on the real
 * parts: git-http-backend behind node:https with a certificate from a test CA the target server
 * trusts (its sessions' GIT_SSL_CAINFO, as a server trusts its system store), requiring basic
 * auth with the token; a GitHub push delivery signed as GitHub signs it; the commit fetched and
 * built on the server by the real Docker engine and answered through the edge proxy.
 */
describe('a push builds its commit fetched over HTTPS with a token, and the edge serves it', () => {
  let suite: EdgeSuite;
  let git: TlsGitHost;
  let serviceId: string;
  let secret: string;
  let edgePort: number;

  const site = () => viaEdge(edgePort, DOMAIN, '/version');
  const commitVersion = (version: string) =>
    git.commit({
      message: `Release ${version}`,
      files: {
        Dockerfile: `FROM ${suite.image('1.0.0')}\nCOPY version /www/version\n`,
        version: `${version}\n`,
      },
    });
  const setSource = (token: string) =>
    call(suite.t.url, 'POST', 'setServiceGitSource', suite.owner, {
      serviceId,
      repository: git.httpsUrl,
      token,
      rules: [{ kind: 'branch', pattern: 'main', action: 'deploy' }],
    });
  /** A push as GitHub sends it, for the repository the source follows. */
  const push = async (commit: string) => {
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      before: '0'.repeat(40),
      after: commit,
      deleted: false,
      repository: { full_name: 'acme/docs', ssh_url: git.sshUrl, clone_url: git.httpsUrl },
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
  /** The files under the server's deployment directory that contain `text`. */
  const serverFilesWith = (text: string): string[] => {
    const grep = spawnSync('grep', ['-rlF', '--', text, suite.sshd.remoteDir], {
      encoding: 'utf8',
    });
    if (grep.status !== 0 && grep.status !== 1) throw new Error(`grep: ${grep.stderr}`);
    return grep.stdout.split('\n').filter(Boolean);
  };

  beforeAll(async () => {
    // First: the target server's sessions are told where its CA is.
    git = await startGitHost({ name: 'docs', tls: true });
    git.requireToken(TOKEN);
    edgePort = await freePort();
    suite = await startEdgeSuite({
      project: PROJECT,
      publish: [`127.0.0.1:${edgePort}:80`],
      sshdEnv: [`GIT_SSL_CAINFO=${git.caFile}`],
    });
    const { t, owner, serverId, engine } = suite;
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'docs',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/docs`,
        compose: `services:\n  web:\n    image: ${engine.registry}/acme/docs:latest\n`,
        routes: [{ domain: DOMAIN, service: 'web', port: 80, tls: 'off' }],
      }),
    ).serviceId;
    const answer = data<{
      transport: string;
      auth: string;
      deployKey: unknown;
      webhook: { secret: string };
    }>(await setSource(TOKEN));
    expect([answer.transport, answer.auth, answer.deployKey]).toEqual(['https', 'token', null]);
    secret = answer.webhook.secret;
  }, 5 * 60_000);
  afterAll(async () => {
    await suite?.stop();
    await git?.stop();
  });

  it('a push to main fetches the commit with the token over HTTPS and serves it', async () => {
    const commit = commitVersion('https-1');
    const res = await push(commit);
    expect([res.status, res.body.status]).toEqual([202, 'queued']);
    const done = await finished(res.body.deploymentId);
    expect(done.status).toBe('succeeded');
    expect(done.imageRef).toBe(`${suite.engine.registry}/acme/docs:${commit}`);
    expect(done.snapshot.git).toMatchObject({ commit, ref: 'refs/heads/main' });
    await expect(site()).resolves.toBe('200 https-1');
    const log = await deploymentLog(suite.t, suite.owner, done.id);
    expect(log).toContain(`build: checked out ${commit}`);

    // The fetch reached the HTTPS server, every request with the token (git's user name only
    // is recorded): the pack was served to an authenticated client.
    expect(git.httpRequests()).toEqual(
      expect.arrayContaining([
        '/docs.git/info/refs?service=git-upload-pack',
        '/docs.git/git-upload-pack',
      ]),
    );
    const seen = git.httpLog();
    expect(seen).toContainEqual({
      scheme: 'https',
      method: 'POST',
      path: '/docs.git/git-upload-pack',
      user: 'git',
      authorized: true,
    });
    expect(seen.filter((r) => r.scheme !== 'https' || !r.authorized || r.user !== 'git')).toEqual(
      [],
    );

    // The token is nowhere to be read: not in the log, not in any event, not on the server.
    for (const text of [TOKEN, basic(TOKEN)]) {
      expect(log).not.toContain(text);
      expect(await eventsText(suite.t)).not.toContain(text);
      expect(serverFilesWith(text)).toEqual([]);
    }
  });

  it('with a token the host refuses, the build fails and the old version keeps serving', async () => {
    const changed = data<{ auth: string; changed: boolean }>(await setSource(WRONG_TOKEN));
    expect(changed).toMatchObject({ auth: 'token', changed: true });
    const before = git.httpLog().length;
    const commit = commitVersion('https-2');
    const res = await push(commit);
    expect([res.status, res.body.status]).toEqual([202, 'queued']);
    const done = await finished(res.body.deploymentId);
    expect([done.status, done.failedStep]).toEqual(['failed', 'build']);
    await expect(site()).resolves.toBe('200 https-1');

    // The host saw the wrong credentials and refused them; nothing was served.
    const attempts = git.httpLog().slice(before);
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts).toEqual(
      Array(attempts.length).fill(
        expect.objectContaining({ scheme: 'https', user: 'git', authorized: false }),
      ),
    );
    const log = await deploymentLog(suite.t, suite.owner, done.id);
    expect(log).not.toContain(`checked out ${commit}`);
    // git, refused its header, looks for credentials of its own and finds none.
    expect(log).toContain("the repository refused the source's credentials");
    for (const text of [TOKEN, WRONG_TOKEN, basic(TOKEN), basic(WRONG_TOKEN)]) {
      expect(log).not.toContain(text);
      expect(await eventsText(suite.t)).not.toContain(text);
      expect(serverFilesWith(text)).toEqual([]);
    }
  });
});
