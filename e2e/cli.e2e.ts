import { execFile } from 'node:child_process';
import {
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
  existsSync,
  chmodSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DeploymentRunner } from '../src/runner/deployment-runner.js';
import { COMPOSE, data } from './support/deployments.js';
import { PASSWORD, call, cookieAuth, createToken, signUp } from './support/identity.js';
import { codeAt, enrol } from './support/mfa.js';
import { registerLoopbackServer, startSshd, type TestSshd } from './support/sshd.js';
import { TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const bin = fileURLToPath(new URL('../bin/slipway.js', import.meta.url));

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: {
    ok: boolean;
    data?: Record<string, unknown>;
    error?: { code: string; message: string; data: Record<string, unknown> };
  };
}

describe('the slipway CLI as a subprocess', () => {
  const clock = new TestClock();
  let t: TestApp;
  let sshd: TestSshd;
  let home: string;
  let owner: Record<string, string>;
  let serviceId: string;
  let ownerToken = '';

  function cli(args: string[], env: Record<string, string> = {}, cwd = home): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [bin, ...args],
        {
          cwd,
          env: {
            ...process.env,
            XDG_CONFIG_HOME: join(home, 'config'),
            SLIPWAY_URL: '',
            SLIPWAY_TOKEN: '',
            ...env,
          },
        },
        (error, stdout, stderr) => {
          let json: CliResult['json'] = { ok: false };
          try {
            json = JSON.parse(stdout);
          } catch {
            // human output
          }
          resolve({
            code: error ? Number((error as { code?: number }).code ?? 1) : 0,
            stdout,
            stderr,
            json,
          });
        },
      );
    });
  }
  /** Runs a printed command line through a shell, with `slipway` on PATH. */
  function shell(line: string, cwd: string): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(
        '/bin/sh',
        ['-c', `${line} --json`],
        {
          cwd,
          env: {
            ...process.env,
            PATH: `${join(home, 'bin')}:${process.env.PATH}`,
            XDG_CONFIG_HOME: join(home, 'config'),
            SLIPWAY_URL: t.url,
            SLIPWAY_TOKEN: ownerToken,
          },
        },
        (error, stdout, stderr) => {
          resolve({
            code: error ? Number((error as { code?: number }).code ?? 1) : 0,
            stdout,
            stderr,
            json: stdout ? JSON.parse(stdout) : { ok: false },
          });
        },
      );
    });
  }

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'slipway-cli-'));
    mkdirSync(join(home, 'bin'));
    writeFileSync(
      join(home, 'bin', 'slipway'),
      `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`,
    );
    chmodSync(join(home, 'bin', 'slipway'), 0o755);
    sshd = await startSshd();
    t = await startTestApp({ notes: false, clock });
    Object.assign(t.config.runner, {
      mode: 'embedded',
      remoteDir: sshd.remoteDir,
      stepTimeoutSeconds: 60,
      pollMs: 50,
    });
    await t.app.get(DeploymentRunner).onApplicationBootstrap();
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const serverId = await registerLoopbackServer(t.url, owner, sshd, 'box');
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'api',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      }),
    ).serviceId;
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('logs in with a token, stores it 0600 in a 0700 directory, and whoami reports it', async () => {
    const { token } = await createToken(
      t.url,
      owner.Cookie,
      [
        'deploy:read',
        'deploy:start',
        'deploy:plan',
        'server:read',
        'service:write',
        'approvals:request',
        'deploy:cancel',
      ],
      30,
    );
    ownerToken = token;
    const login = await cli(['login', '--url', t.url, '--token', token, '--json']);
    expect([login.code, login.json.ok]).toEqual([0, true]);
    const file = join(home, 'config', 'slipway', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'config', 'slipway')).mode & 0o777).toBe(0o700);
    const who = await cli(['whoami', '--json']);
    expect(who.json).toEqual({
      ok: true,
      data: {
        authMethod: 'token',
        principal: expect.objectContaining({ kind: 'user', role: 'owner' }),
        role: 'owner',
        scopes: expect.arrayContaining(['deploy:start']),
        token: expect.objectContaining({
          id: expect.any(String),
          name: expect.any(String),
          lane: 'command',
          scopes: expect.any(Array),
        }),
        session: null,
      },
    });
    expect(who.stdout).not.toContain(token);
  });

  it('refuses a bad token before storing it, and reports unreachable servers in one line', async () => {
    const bad = await cli([
      'login',
      '--url',
      t.url,
      '--token',
      'slw_notarealtoken',
      '--name',
      'bad',
      '--json',
    ]);
    expect([bad.code, bad.json.error?.code]).toEqual([2, 'TOKEN_INVALID']);
    const gone = await cli(['login', '--url', 'http://127.0.0.1:9', '--token', 'slw_x']);
    expect(gone.code).toBe(1);
    expect(gone.stderr.trim().split('\n')).toHaveLength(1);
    expect(gone.stderr).toMatch(/UNREACHABLE/);
    const flag = await cli(['whoami', '--frobnicate']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).not.toMatch(/at .*\.js/);
  });

  it('logs in with password + TOTP, and with a recovery code that is then used up', async () => {
    const user = await signUp(t.url, 'mfa@example.com');
    const { secret, recoveryCodes } = await enrol(t.url, user.cookie, clock);
    const missing = await cli([
      'login',
      '--url',
      t.url,
      '--email',
      'mfa@example.com',
      '--password',
      PASSWORD,
      '--name',
      'mfa',
      '--json',
    ]);
    expect([missing.code, missing.json.error?.code]).toEqual([2, 'MFA_REQUIRED']);
    const withCode = await cli([
      'login',
      '--url',
      t.url,
      '--email',
      'mfa@example.com',
      '--password',
      PASSWORD,
      '--totp-code',
      await codeAt(secret, clock),
      '--name',
      'mfa',
      '--json',
    ]);
    expect([withCode.code, withCode.json.data?.authMethod]).toEqual([0, 'session']);
    const who = await cli(['whoami', '--context', 'mfa', '--json']);
    expect(who.json.data).toMatchObject({
      authMethod: 'session',
      token: null,
      session: expect.objectContaining({ mfaVerified: true }),
    });
    const recovery = await cli([
      'login',
      '--url',
      t.url,
      '--email',
      'mfa@example.com',
      '--password',
      PASSWORD,
      '--recovery-code',
      recoveryCodes[0],
      '--name',
      'mfa2',
      '--json',
    ]);
    expect(recovery.code).toBe(0);
    const again = await cli([
      'login',
      '--url',
      t.url,
      '--email',
      'mfa@example.com',
      '--password',
      PASSWORD,
      '--recovery-code',
      recoveryCodes[0],
      '--name',
      'mfa3',
      '--json',
    ]);
    expect([again.code, again.json.error?.code]).toEqual([2, 'INVALID_CREDENTIALS']);
  });

  it('exits 2 with FORBIDDEN and the scopes when a read-only agent deploys', async () => {
    const agent = data<{ principalId: string }>(
      await call(t.url, 'POST', 'createAgent', owner, { name: 'reader' }),
    );
    const { token } = data<{ token: string }>(
      await call(t.url, 'POST', 'generateAgentToken', owner, {
        principalId: agent.principalId,
        tokenName: 'ro',
        expiresInDays: 1,
      }),
    );
    const res = await cli(['deploy', serviceId, 'ghcr.io/acme/api:9.9.9', '--yes', '--json'], {
      SLIPWAY_URL: t.url,
      SLIPWAY_TOKEN: token,
    });
    expect(res.code).toBe(2);
    expect(res.json.error).toMatchObject({
      code: 'FORBIDDEN',
      data: {
        requiredScopes: ['deploy:start'],
        grantedScopes: ['approval:read', 'deploy:read', 'server:read', 'service:read'],
      },
    });
  });

  it('refuses to change state without --yes when nobody can be asked', async () => {
    const res = await cli([
      'deploy',
      'api',
      'ghcr.io/acme/api:1.0.0',
      '--context',
      'default',
      '--json',
    ]);
    expect([res.code, res.json.error?.code]).toEqual([1, 'CONFIRMATION_REQUIRED']);
  });

  it('follows a deployment with --wait to its end, and exits non-zero when it fails', async () => {
    sshd.setMode('success');
    const ok = await cli([
      'deploy',
      'api@production',
      'ghcr.io/acme/api:1.0.0',
      '--wait',
      '--yes',
      '--context',
      'default',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/\[pull\] {2}api Pulled/);
    expect(ok.stdout).toMatch(/succeeded/);
    sshd.setMode('pull-fail');
    const bad = await cli([
      'deploy',
      'api',
      'ghcr.io/acme/api:1.0.1',
      '--wait',
      '--yes',
      '--json',
      '--context',
      'default',
    ]);
    expect([bad.code, bad.json.error?.code]).toEqual([1, 'DEPLOYMENT_FAILED']);
    sshd.setMode('success');
  });

  it('runs every plan’s executeCommand successfully', async () => {
    const cwd = mkdtempSync(join(home, 'work-'));
    writeFileSync(
      join(cwd, 'compose.yaml'),
      'services:\n  web:\n    image: ghcr.io/acme/web:1.0.0\n',
    );
    const plans: {
      name: string;
      input: Record<string, unknown>;
      after?: (r: CliResult) => Promise<void>;
    }[] = [];
    const deployPlan = data<{ executeCommand: string }>(
      await call(t.url, 'GET', 'deploymentPlan', owner, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:2.0.0',
      }),
    );
    const deployed = await shell(deployPlan.executeCommand, cwd);
    expect([deployed.code, deployed.json.ok, deployed.json.error ?? null]).toEqual([0, true, null]);
    const succeeded = data<{ items: { id: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId, status: 'succeeded' }),
    );
    for (let i = 0; i < 200 && succeeded.items.length < 2; i++) {
      t.app.get(DeploymentRunner).poke();
      await new Promise((r) => setTimeout(r, 50));
      succeeded.items = data<{ items: { id: string }[] }>(
        await call(t.url, 'GET', 'recentDeployments', owner, { serviceId, status: 'succeeded' }),
      ).items;
    }
    const [newest, older] = succeeded.items;
    const backup = data<{ backupId: string }>(
      await call(t.url, 'POST', 'recordBackup', owner, {
        serviceId,
        location: 's3://b/x.dump',
        checksum: `sha256:${'e'.repeat(64)}`,
        sizeBytes: 10,
      }),
    );
    const serverId = data<{ servers: { id: string }[] }>(
      await call(t.url, 'GET', 'infrastructureInventory', owner),
    ).servers[0].id;
    plans.push(
      { name: 'rollbackPlan', input: { serviceId, targetDeploymentId: older.id } },
      { name: 'backupRestorePlan', input: { backupId: backup.backupId } },
      {
        name: 'composeDeploymentPlan',
        input: { serverId, compose: 'services:\n  web:\n    image: ghcr.io/acme/web:1.0.0\n' },
      },
      { name: 'configDiff', input: { fromDeploymentId: older.id, toDeploymentId: newest.id } },
    );
    for (const p of plans) {
      const plan = data<{ isReady: boolean; executeCommand: string }>(
        await call(t.url, 'GET', p.name, owner, p.input),
      );
      expect([p.name, plan.isReady]).toEqual([p.name, true]);
      const run = await shell(plan.executeCommand, cwd);
      expect([p.name, plan.executeCommand, run.code, run.json.ok, run.json.error ?? null]).toEqual([
        p.name,
        plan.executeCommand,
        0,
        true,
        null,
      ]);
    }
    expect(existsSync(join(cwd, 'compose.yaml'))).toBe(true);
  });

  it('exits 3 for a plan that is not ready', async () => {
    const res = await cli([
      'plan',
      'deploy',
      'api',
      'ghcr.io/other/api:1',
      '--json',
      '--context',
      'default',
    ]);
    expect([res.code, res.json.error?.code]).toEqual([3, 'PLAN_NOT_READY']);
  });

  it('seals and verifies the audit trail', async () => {
    const { token } = await createToken(t.url, owner.Cookie, ['audit:read', 'audit:seal'], 1);
    const env = { SLIPWAY_URL: t.url, SLIPWAY_TOKEN: token };
    expect((await cli(['audit', 'seal', '--yes', '--json'], env)).json.ok).toBe(true);
    const verified = await cli(['audit', 'verify', '--json'], env);
    expect([verified.code, verified.json.data?.ok]).toEqual([0, true]);
    expect(String(verified.json.data?.message)).toMatch(/events, 1 checkpoints verified/);
  });

  it('logs out and is then not logged in', async () => {
    expect((await cli(['logout', '--context', 'default', '--json'])).code).toBe(0);
    const after = await cli(['whoami', '--context', 'default', '--json']);
    expect(after.code).toBe(2);
  });
});
