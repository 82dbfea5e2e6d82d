import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DeploymentRunner } from '../src/runner/deployment-runner.js';
import { cli as runCli, cliHome, shell as runShell, type CliResult } from './support/cli.js';
import { COMPOSE, data } from './support/deployments.js';
import { call, cookieAuth, createToken, signUp } from './support/identity.js';
import {
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
  ALLOW_LOOPBACK,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('slipway deploy, plans and audit against a runner on a real sshd (the real binary)', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let home: string;
  let owner: Record<string, string>;
  let serviceId: string;
  let ownerToken = '';
  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
    runCli(home, args, env);
  const shell = (line: string, cwd: string): Promise<CliResult> =>
    runShell(home, line, cwd, { SLIPWAY_URL: t.url, SLIPWAY_TOKEN: ownerToken });

  beforeAll(async () => {
    home = cliHome();
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    const account = await signUp(t.url, 'owner@example.com');
    owner = cookieAuth(account.cookie);
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
    const scopes = [
      'deploy:read',
      'deploy:start',
      'deploy:plan',
      'deploy:cancel',
      'server:read',
      'service:write',
      'approvals:request',
    ];
    ownerToken = (await createToken(t.url, account.cookie, scopes, 30)).token;
    const login = await cli(['login', '--url', t.url, '--token', ownerToken, '--json']);
    expect(login.code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    rmSync(home, { recursive: true, force: true });
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
        grantedScopes: [
          'approval:read',
          'deploy:read',
          'diagnostics:read',
          'logs:read',
          'server:read',
          'service:read',
        ],
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
});
