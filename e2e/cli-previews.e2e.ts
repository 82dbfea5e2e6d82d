import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli as runCli, cliHome, type CliResult } from './support/cli.js';
import { readyService } from './support/deployments.js';
import { cookieAuth, createToken, signUp } from './support/identity.js';
import { openPreview } from './support/previews.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** `slipway git set --preview-*` and `slipway previews` (the real binary). */
describe('slipway previews', () => {
  let t: TestApp;
  let home: string;
  let env: Record<string, string>;
  let serviceId: string;
  const cli = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> =>
    runCli(home, args, { ...env, ...extra });

  beforeAll(async () => {
    home = cliHome();
    t = await startTestApp({ notes: false });
    const account = await signUp(t.url, 'owner@example.com');
    ({ serviceId } = await readyService(t.url, cookieAuth(account.cookie)));
    const scopes = [
      'server:read',
      'service:read',
      'service:write',
      'deploy:start',
      'approvals:decide',
    ];
    env = {
      SLIPWAY_URL: t.url,
      SLIPWAY_TOKEN: (await createToken(t.url, account.cookie, scopes, 1)).token,
    };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('sets how pull requests are previewed, their secrets from the environment', async () => {
    const run = await cli(
      [
        'git',
        'set',
        'api@production',
        'https://git.example.com/acme/api.git',
        '--preview-domain',
        'preview.example.com',
        '--preview-route',
        'api:80',
        '--preview-limit',
        '2',
        '--preview-env',
        'MODE=preview',
        '--preview-secret',
        'DATABASE_URL',
      ],
      { DATABASE_URL: 'postgres://preview-secret' },
    );
    expect([run.code, run.stderr]).toEqual([0, '']);
    const show = await cli(['git', 'show', 'api@production']);
    expect(show.stdout).toContain('pr-<n>.preview.example.com → api:80 (at most 2, 72 h)');
    const json = await cli(['git', 'show', 'api@production', '--json']);
    expect(JSON.parse(json.stdout).data.previews.env).toEqual([
      { name: 'MODE', secret: false, value: 'preview' },
      { name: 'DATABASE_URL', secret: true, value: null },
    ]);
    expect(json.stdout).not.toContain('preview-secret');
    const bad = await cli([
      'git',
      'set',
      'api@production',
      'https://git.example.com/a/b.git',
      '--preview-domain',
      'p.example.com',
    ]);
    expect([bad.code, bad.stderr]).toEqual([
      expect.any(Number),
      expect.stringContaining('--preview-route'),
    ]);
    expect(bad.code).not.toBe(0);
  });

  it('lists previews, approves a fork’s and closes one', async () => {
    await openPreview(t, {
      serviceId,
      number: 12,
      headCommit: 'f'.repeat(40),
      fromFork: true,
      author: 'stranger',
      title: 'A change',
      limit: 2,
    });
    const list = await cli(['previews', 'list', 'api@production']);
    const row = list.stdout.split('\n').find((line) => line.includes('pr-12')) ?? '';
    expect(row.split('│').map((cell) => cell.trim())).toEqual([
      '',
      '12',
      'waiting (approve it)',
      'https://pr-12.preview.example.com/',
      'ffffffffffff',
      'stranger (fork)',
      '-',
      '2099-01-01T00:00:00.000Z',
      '',
    ]);
    // Another commit than the head (a push landed since it was looked at) is refused.
    const elsewhere = ['previews', 'approve', 'api@production', '12', '--commit', 'e'.repeat(40)];
    const stale = await cli([...elsewhere, '--yes']);
    expect([stale.code === 0, stale.stderr]).toEqual([
      false,
      expect.stringContaining('look at it again'),
    ]);
    const approve = await cli(['previews', 'approve', 'api@production', '12', '--yes']);
    expect([approve.code, approve.stdout.trim()]).toEqual([
      0,
      'Approved at ffffffffffff: it is being built.',
    ]);
    const again = await cli(['previews', 'approve', 'api@production', '12', '--yes']);
    expect(again.stdout.trim()).toBe('It was not waiting for an approval.');
    const close = await cli(['previews', 'close', 'api@production', '12', '--yes']);
    expect([close.code, close.stdout.trim()]).toEqual([0, 'Closed.']);
    const unknown = await cli(['previews', 'close', 'api@production', 'x1', '--yes']);
    expect([unknown.code === 0, unknown.stderr]).toEqual([
      false,
      expect.stringContaining('pull request number'),
    ]);
  });
});
