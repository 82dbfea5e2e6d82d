import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli as runCli, cliHome, shell, type CliResult } from './support/cli.js';
import { call, cookieAuth, PASSWORD, signUp } from './support/identity.js';
import { codeAt } from './support/mfa.js';
import { D1, SERVICE_ID, seed, serviceWithHistory } from './support/seed.js';
import { TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The commands for members, MFA, backups, services and plans, through the real binary. */
describe('slipway commands for the team, MFA, backups, services and plans', () => {
  const clock = new TestClock();
  let t: TestApp;
  let home: string;
  let owner: Record<string, string>;
  const cli = (args: string[], env: Record<string, string> = {}, stdin = ''): Promise<CliResult> =>
    runCli(home, args, env, stdin);
  const file = (name: string, text: string) => {
    const path = join(home, 'files', name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    home = cliHome();
    mkdirSync(join(home, 'files'));
    t = await startTestApp({ notes: false, clock });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com', 'Olivia Owner')).cookie);
    await seed(t, serviceWithHistory());
    const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--password-stdin'];
    expect((await cli(login, {}, `${PASSWORD}\n`)).code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('lists members, changes a role and deactivates, naming members by email', async () => {
    await signUp(t.url, 'ops@example.com', 'Oscar Ops');
    const list = await cli(['members', 'list']);
    expect(list.stdout).toMatch(/Oscar Ops.*ops@example\.com.*viewer.*active/);
    const role = await cli(['members', 'role', 'OPS@example.com', 'operator', '--yes']);
    expect(role.stdout.trim()).toBe('Oscar Ops <ops@example.com> is now operator');
    const gone = await cli(['members', 'deactivate', 'ops@example.com', '--yes']);
    expect(gone.code).toBe(0);
    const after = await cli(['members', 'list', '--json']);
    expect(after.json.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          email: 'ops@example.com',
          role: 'operator',
          status: 'deactivated',
        }),
      ]),
    );
    const unknown = await cli(['members', 'role', 'nobody@example.com', 'viewer', '--yes']);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'slipway: NOT_FOUND: No member nobody@example.com\n',
    ]);
  });

  it('enrols in MFA with a QR code, rotates the recovery codes, logs in with a code, disables', async () => {
    const started = await cli(['mfa', 'enrol', '--password-stdin'], {}, `${PASSWORD}\n`);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/[█▀▄]{7}/);
    const secret = /secret {2}([A-Z2-7]+)/.exec(started.stdout)![1];
    expect(started.stderr).toContain('Then run: slipway mfa confirm --totp-code CODE');
    const code = await codeAt(secret, clock);
    const confirmed = await cli(['mfa', 'confirm', '--totp-code', code, '--json']);
    expect(confirmed.json.data?.recoveryCodes).toHaveLength(10);
    clock.advance(30_000);
    const rotated = await cli(['mfa', 'recovery-codes', '--yes', '--json'], {
      SLIPWAY_TOTP_CODE: await codeAt(secret, clock),
    });
    expect(rotated.json.data?.recoveryCodes).toHaveLength(10);
    expect(rotated.json.data?.recoveryCodes).not.toEqual(confirmed.json.data?.recoveryCodes);
    clock.advance(30_000);
    const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--password-stdin'];
    const noCode = await cli(login, {}, `${PASSWORD}\n`);
    expect([noCode.code, noCode.stderr]).toEqual([2, expect.stringContaining('MFA_REQUIRED')]);
    const withCode = await cli(
      [...login, '--json'],
      { SLIPWAY_TOTP_CODE: await codeAt(secret, clock) },
      `${PASSWORD}\n`,
    );
    expect(withCode.json).toMatchObject({ ok: true, data: { authMethod: 'session' } });
    clock.advance(30_000);
    const disabled = await cli(
      ['mfa', 'disable', '--password-stdin', '--totp-code', await codeAt(secret, clock), '--yes'],
      {},
      `${PASSWORD}\n`,
    );
    expect([disabled.code, disabled.stdout.trim()]).toEqual([
      0,
      'Two-factor authentication is off',
    ]);
  });

  it('updates a service, and plan diff shows the image, variables (secrets hidden) and compose diff', async () => {
    const compose = file(
      'compose.yaml',
      'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n    restart: always\n',
    );
    const updated = await cli(
      ['services', 'update', 'api', '--compose-file', compose, '--env', 'LOG_LEVEL=debug'].concat([
        '--secret',
        'DB_PASSWORD',
        '--yes',
      ]),
      { DB_PASSWORD: 'hunter2-very-secret' },
    );
    expect(updated.stdout.trim()).toBe('Service api updated (compose, env)');
    const nothing = await cli(['services', 'update', 'api', '--yes']);
    expect([nothing.code, nothing.stderr]).toEqual([
      1,
      expect.stringContaining('Nothing to change'),
    ]);
    const deployed = await cli(['deploy', 'api', '1.5.0', '--yes', '--json']);
    const to = String(deployed.json.data?.deploymentId);
    const diff = await cli(['plan', 'diff', D1, to]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('Image:   ghcr.io/acme/api:1.0.0 -> ghcr.io/acme/api:1.5.0');
    expect(diff.stdout).toContain('+ DB_PASSWORD (secret, value hidden) added');
    expect(diff.stdout).toContain('+ LOG_LEVEL added');
    expect(diff.stdout).toMatch(/^\+ {4}restart: always$/m);
    expect(diff.stdout).not.toContain('hunter2');
  });

  it('plan compose names the file given in its Run line, which runs as printed', async () => {
    const worker = file(
      'worker compose.yaml',
      'services:\n  worker:\n    image: ghcr.io/acme/worker:2.0.0\n',
    );
    const planned = await cli(['plan', 'compose', 'edge-1', '--compose-file', worker]);
    const run = /^Run: (.+)$/m.exec(planned.stdout)![1];
    expect(run).toContain(`--compose-file '${worker}'`);
    const ran = await shell(home, run, home, {});
    expect(ran.json).toMatchObject({ ok: true, data: { serviceId: expect.any(String) } });

    const again = await cli(['plan', 'compose', 'edge-1', '--compose-file', worker, '--json']);
    expect(again.json.data).toMatchObject({
      preflightChecks: expect.arrayContaining([
        expect.objectContaining({ check: 'service-exists', status: 'warn' }),
      ]),
      executeCommand: expect.stringMatching(
        /^slipway services update [0-9a-f-]{36} --compose-file /,
      ),
    });
    const update = await cli(['plan', 'compose', 'edge-1', '--compose-file', worker]);
    const updateRun = /^Run: (.+)$/m.exec(update.stdout)![1];
    expect((await shell(home, updateRun, home, {})).json).toMatchObject({ ok: true });
  });

  it('lists backups, plans a restore, and says why a service without a backup command is not backed up', async () => {
    const recorded = await call(t.url, 'POST', 'recordBackup', owner, {
      serviceId: SERVICE_ID,
      location: 's3://backups/api-1.dump',
      checksum: `sha256:${'a'.repeat(64)}`,
      sizeBytes: 2048,
    });
    const backupId = String(recorded.body.result.data.json.backupId);
    const list = await cli(['backups', 'list', '--service', 'api']);
    expect(list.stdout).toMatch(new RegExp(`${backupId}.*2048.*s3://backups/api-1\\.dump`));
    const plan = await cli(['backups', 'restore-plan', backupId]);
    expect(plan.stdout).toContain('verify its SHA-256 against the recorded checksum');
    expect(plan.stdout).toMatch(/^Run: slipway approvals request --action restore /m);
    const trigger = await cli(['backups', 'trigger', 'api', '--yes']);
    expect([trigger.code, trigger.stderr.split('\n').slice(-2)]).toEqual([
      1,
      ['slipway: CONFLICT: The service defines no backup command', ''],
    ]);
  });

  it('answers the same approval request with the pending one instead of filing it twice', async () => {
    const ask = () =>
      cli(
        ['approvals', 'request', '--action', 'deploy', '--service', 'api', '--image']
          .concat(['ghcr.io/acme/api:2.0.0', '--reason', 'ship the new billing page', '--yes'])
          .concat(['--json']),
      );
    const first = await ask();
    const second = await ask();
    expect(first.json.data).toMatchObject({ created: true });
    expect(second.json.data).toMatchObject({
      created: false,
      approvalId: first.json.data?.approvalId,
    });
    const pending = await cli(['approvals', 'list', '--json']);
    const items = (pending.json.data as unknown as { items: { payload: unknown }[] }).items;
    expect(items.filter((a) => JSON.stringify(a.payload).includes('2.0.0'))).toHaveLength(1);
    // For people: what approving it runs (the image and the server), not only its reason.
    const table = await cli(['approvals', 'list']);
    expect(table.stdout).toMatch(/ghcr\.io\/acme\/api:2\.0\.0 \(sha256:[0-9a-f]{12}\)/);
    expect(table.stdout).toMatch(/│ runs +│ server +│ changes +│/);
    expect(table.stdout).toMatch(/\(sha256:[0-9a-f]{12}\) +│ edge-1 +│ image\b/);
  });
});
