import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli as runCli, cliHome, type CliResult } from './support/cli.js';
import { PASSWORD, signUp } from './support/identity.js';
import { SERVICE_ID, seed, serviceWithHistory } from './support/seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** `slipway notifications ...` and `slipway hooks ...` through the real binary. */
describe('slipway notifications and hooks commands', () => {
  let t: TestApp;
  let home: string;
  const cli = (args: string[]): Promise<CliResult> => runCli(home, args, {}, '');

  beforeAll(async () => {
    home = cliHome();
    t = await startTestApp({ notes: false });
    await signUp(t.url, 'owner@example.com', 'Olivia Owner');
    await seed(t, serviceWithHistory());
    const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--password-stdin'];
    expect((await runCli(home, login, {}, `${PASSWORD}\n`)).code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('creates a webhook channel (secret printed once), lists, updates, tests and shows deliveries', async () => {
    const created = await cli([
      'notifications',
      'create',
      'ops',
      '--kind',
      'webhook',
      '--target',
      'https://hooks.example.com/slipway',
      '--on',
      'deployment.failed,approval.requested',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const channel = created.json.data as { channelId: string; secret: string };
    expect(channel.secret).toMatch(/^whsec_/);
    const list = await cli(['notifications', 'list']);
    expect(list.stdout).toMatch(/ops.*webhook.*https:\/\/hooks\.example\.com\/….*true/);
    expect(list.stdout).not.toContain(channel.secret);
    const updated = await cli(['notifications', 'update', channel.channelId, '--disable']);
    expect(updated.stdout).toMatch(/enabled\s+false/);
    const refused = await cli(['notifications', 'test', channel.channelId]);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      'slipway: CONFLICT: The channel is disabled; enable it to test it\n',
    ]);
    await cli(['notifications', 'update', channel.channelId, '--enable']);
    const tested = await cli(['notifications', 'test', channel.channelId]);
    expect(tested.stdout).toMatch(/^Test [0-9a-f-]{36} queued on /);
    const deliveries = await cli(['notifications', 'deliveries', '--channel', channel.channelId]);
    expect(deliveries.code).toBe(0);
    const bad = await cli(['notifications', 'create', 'x', '--kind', 'sms', '--target', 'x']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/BAD_REQUEST/);
  });

  it('creates a deploy hook (URL and secret printed once), lists and revokes it', async () => {
    const created = await cli([
      'hooks',
      'create',
      SERVICE_ID,
      'ci',
      '--rule',
      'tag:v*=ghcr.io/acme/api:{version}',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const hook = created.json.data as { hookId: string; url: string; secret: string };
    expect(hook.url).toBe(`${t.config.publicUrl}/api/v1/hooks/${hook.hookId}`);
    const list = await cli(['hooks', 'list', '--service', SERVICE_ID]);
    expect(list.stdout).toMatch(/ci.*active.*tag:v\*=ghcr\.io\/acme\/api:\{version\}/);
    expect(list.stdout).not.toContain(hook.secret);
    const revoked = await cli(['hooks', 'revoke', hook.hookId, '--yes']);
    expect(revoked.stdout.trim()).toBe(`Hook ${hook.hookId} revoked.`);
    const hub = await cli([
      'hooks',
      'create',
      SERVICE_ID,
      'hub',
      '--rule',
      'image:*=ghcr.io/acme/api:{tag}',
      '--unsigned-url',
    ]);
    expect(hub.stdout).toMatch(
      /Unsigned URL for Docker Hub \(shown once; whoever has it can deploy\): http\S+\/api\/v1\/hooks\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{43}/,
    );
    const badRule = await cli(['hooks', 'create', SERVICE_ID, 'x', '--rule', 'nonsense']);
    expect(badRule.code).toBe(1);
  });
});
