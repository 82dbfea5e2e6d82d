import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli as runCli, cliHome, type CliResult } from './support/cli.js';
import { readyService } from './support/deployments.js';
import { cookieAuth, PASSWORD, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The invite and lifecycle commands through the real binary. */
describe('slipway invites, servers update/decommission, services env/archive', () => {
  let t: TestApp;
  let home: string;
  let owner: Record<string, string>;
  const cli = (args: string[], env: Record<string, string> = {}, stdin = ''): Promise<CliResult> =>
    runCli(home, args, env, stdin);

  beforeAll(async () => {
    home = cliHome();
    t = await startTestApp({ notes: false, config: { openSignup: false } });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com', 'Olivia Owner')).cookie);
    const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--password-stdin'];
    expect((await cli(login, {}, `${PASSWORD}\n`)).code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('invites, lists and revokes', async () => {
    const made = await cli([
      'invites',
      'create',
      'ana@example.com',
      '--role',
      'operator',
      '--yes',
      '--json',
    ]);
    expect(made.json).toMatchObject({
      ok: true,
      data: { email: 'ana@example.com', role: 'operator' },
    });
    const id = (made.json.data as { inviteId: string }).inviteId;
    expect((await cli(['invites', 'list'])).stdout).toMatch(
      /ana@example\.com\W+operator\W+pending/,
    );
    expect((await cli(['invites', 'revoke', id, '--yes'])).stdout.trim()).toBe(
      `Invite ${id} is revoked`,
    );
    const above = await cli(['invites', 'create', 'x@example.com', '--role', 'king', '--yes']);
    expect(above.code).toBe(1);
  });

  it('changes env vars, archives a service, updates and decommissions its server', async () => {
    const { serverId } = await readyService(t.url, owner, { name: 'shop' });
    const env = await cli(
      [
        'services',
        'env',
        'shop@production',
        '--set',
        'LOG_LEVEL=debug',
        '--secret',
        'API_KEY',
        '--unset',
        'DATABASE_URL',
        '--yes',
      ],
      { API_KEY: 'from-the-environment' },
    );
    expect(env.code).toBe(0);
    const shown = await cli(['services', 'show', 'shop@production', '--json']);
    expect(shown.json.data).toMatchObject({
      env: [
        { name: 'LOG_LEVEL', value: 'debug', secret: false },
        { name: 'API_KEY', value: '********', secret: true },
      ],
    });
    expect(shown.stdout).not.toContain('from-the-environment');
    const refused = await cli(['servers', 'decommission', serverId, '--yes']);
    expect(refused.code).toBe(1);
    expect((await cli(['services', 'archive', 'shop@production', '--yes'])).stdout).toMatch(
      /archived/,
    );
    const updated = await cli(['servers', 'update', serverId, '--label', 'tier=web', '--yes']);
    expect(updated.stdout).toMatch(/updated \(labels\)/);
    expect((await cli(['servers', 'decommission', serverId, '--yes'])).code).toBe(0);
    expect((await cli(['servers', 'show', serverId, '--json'])).json.data).toMatchObject({
      status: 'decommissioned',
      labels: { tier: 'web' },
    });
  });
});
