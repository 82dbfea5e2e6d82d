import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli as runCli, cliHome, type CliResult } from './support/cli.js';
import { readyService } from './support/deployments.js';
import { cookieAuth, createToken, signUp } from './support/identity.js';
import { ALLOW_LOOPBACK, startSshd, type TestSshd } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = 'glpat-cli-0123456789SECRET';

/** `slipway git` (the real binary): a repository followed over SSH with its host key fetched. */
describe('slipway git set, show, remove', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let home: string;
  let env: Record<string, string>;
  const cli = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> =>
    runCli(home, args, { ...env, ...extra });

  beforeAll(async () => {
    home = cliHome();
    sshd = await startSshd();
    t = await startTestApp({
      notes: false,
      config: { serverAddressPolicy: ALLOW_LOOPBACK, serverCheckTimeoutSeconds: 10 },
    });
    const account = await signUp(t.url, 'owner@example.com');
    await readyService(t.url, cookieAuth(account.cookie));
    const scopes = ['server:read', 'server:write', 'service:read', 'service:write', 'deploy:start'];
    env = {
      SLIPWAY_URL: t.url,
      SLIPWAY_TOKEN: (await createToken(t.url, account.cookie, scopes, 1)).token,
    };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('fetches the SSH host key, pins it once trusted, and prints the deploy key to add', async () => {
    const repository = `ssh://git@127.0.0.1:${sshd.port}/srv/git/api.git`;
    const run = await cli([
      'git',
      'set',
      'api@production',
      repository,
      '--rule',
      'branch:main=deploy',
      'tag:v*=approval',
      '--yes',
    ]);
    expect([run.code, run.stderr]).toEqual([0, expect.stringContaining(sshd.fingerprint)]);
    expect(run.stdout).toMatch(/read-only deploy key .*\nssh-ed25519 \S+ slipway-api-production/);
    // The push webhook's address, and its secret this once.
    expect(run.stdout).toMatch(
      /Push webhook: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/git\/push\/[0-9a-f-]{36} /,
    );
    expect(run.stdout).toMatch(/shown this once.*\nwhsec_[A-Za-z0-9_-]{43}\n?$/);
    const show = await cli(['git', 'show', 'api@production', '--json']);
    expect(show.json).toMatchObject({
      ok: true,
      data: {
        repository,
        auth: 'deploy-key',
        hostKeyFingerprint: sshd.fingerprint,
        rules: [
          { kind: 'branch', pattern: 'main', action: 'deploy' },
          { kind: 'tag', pattern: 'v*', action: 'approval' },
        ],
      },
    });
    expect(show.stdout).not.toMatch(/PRIVATE/);
  });

  it('reads an HTTPS token from the environment, never from argv, and never prints it', async () => {
    const run = await cli(
      [
        'git',
        'set',
        'api@production',
        'https://gitlab.example.com/acme/api.git',
        '--status-provider',
        'gitlab',
        '--json',
      ],
      { SLIPWAY_GIT_TOKEN: TOKEN, SLIPWAY_GIT_STATUS_TOKEN: `${TOKEN}-status` },
    );
    expect(run.json).toMatchObject({ ok: true, data: { auth: 'token', deployKey: null } });
    const show = await cli(['git', 'show', 'api@production']);
    expect(show.stdout).toMatch(/token user +git/);
    expect(show.stdout).toMatch(/push webhook +yes/);
    expect(show.stdout).toMatch(/commit statuses +gitlab \(https:\/\/gitlab\.com\/api\/v4\)/);
    expect(run.stdout + show.stdout).not.toContain(TOKEN);
    // Set again: the secret is not shown a second time.
    expect(run.json).toMatchObject({ data: { webhook: { secret: null } } });
  });

  it('deploys a commit by hand, and refuses what is not a full commit id', async () => {
    const commit = 'c0ffee'.padEnd(40, '0');
    const run = await cli([
      'git',
      'deploy',
      'api@production',
      commit,
      '--ref',
      'refs/heads/main',
      '--yes',
    ]);
    expect([run.code, run.stdout]).toEqual([0, expect.stringMatching(/^Deployment \S+ queued/)]);
    const bad = await cli(['git', 'deploy', 'api@production', 'c0ffee', '--yes']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('full commit id');
  });

  it('refuses a rule it cannot read, and removes the source', async () => {
    const bad = await cli([
      'git',
      'set',
      'api@production',
      'https://x.example/a',
      '--rule',
      'main',
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('write kind:pattern=action');
    const removed = await cli(['git', 'remove', 'api@production', '--yes']);
    expect([removed.code, removed.stdout.trim()]).toEqual([0, 'Removed.']);
    const show = await cli(['git', 'show', 'api@production']);
    expect(show.stdout.trim()).toBe('This service follows no repository.');
  });
});
