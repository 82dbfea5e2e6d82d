import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli as runCli, cliHome, type CliResult } from './support/cli.js';
import { createToken, PASSWORD, signUp } from './support/identity.js';
import { D2, seed, serviceWithHistory } from './support/seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** What a person at a terminal sees (the real binary, no --json). */
describe('slipway for people: help, field problems, logout', () => {
  let t: TestApp;
  let home: string;
  let token: string;
  const cli = (args: string[], env: Record<string, string> = {}, stdin = ''): Promise<CliResult> =>
    runCli(home, args, env, stdin);

  beforeAll(async () => {
    home = cliHome();
    t = await startTestApp({ notes: false });
    const owner = await signUp(t.url, 'owner@example.com');
    const scopes = ['members:manage', 'members:read', 'deploy:read', 'deploy:start', 'server:read'];
    // An agent's preset must lie within the token that creates it (narrowing).
    scopes.push('approvals:request', 'approval:read', 'tokens:manage', 'service:read');
    scopes.push('logs:read', 'diagnostics:read');
    ({ token } = await createToken(t.url, owner.cookie, scopes, 30));
    await seed(t, serviceWithHistory());
  });
  afterAll(async () => {
    await t?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('prints its help when run with no arguments', async () => {
    const run = await cli([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: slipway');
    for (const command of ['login', 'deploy', 'servers', 'tokens', 'audit']) {
      expect(run.stdout).toContain(command);
    }
  });

  it('names each field problem of a refused input, not only "Input is invalid"', async () => {
    expect((await cli(['login', '--url', t.url, '--token', token, '--name', 'a'])).code).toBe(0);
    const run = await cli(['agents', 'create', 'bot', '--preset', 'agent:everything', '--yes']);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^slipway: BAD_REQUEST: /);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^ {2}preset: .+/)]);
  });

  it('says which context is current after logging out of one', async () => {
    expect((await cli(['login', '--url', t.url, '--token', token, '--name', 'b'])).code).toBe(0);
    const first = await cli(['logout', '--context', 'b']);
    expect(first.stdout.trim()).toBe('Logged out of context "b"; context "a" is now current');
    const last = await cli(['logout']);
    expect(last.stdout.trim()).toBe('Logged out of context "a"; no context is stored');
  });

  it('lists deployments with the step and reason of a failure', async () => {
    expect((await cli(['login', '--url', t.url, '--token', token, '--name', 'c'])).code).toBe(0);
    const run = await cli(['deployments', 'list']);
    expect(run.code).toBe(0);
    const failed = run.stdout.split('\n').find((line) => line.includes(D2));
    expect(failed).toContain('pull: image pull failed');
  });

  it("deploys a bare tag as that tag of the service's repository", async () => {
    const run = await cli(['deploy', 'api', '1.4.3', '--yes', '--json']);
    expect(run.json).toEqual({ ok: true, data: expect.objectContaining({ status: 'queued' }) });
    const deploymentId = String(run.json.data?.deploymentId);
    const shown = await cli(['deployments', 'show', deploymentId, '--json']);
    expect(shown.json).toMatchObject({ data: { imageRef: 'ghcr.io/acme/api:1.4.3' } });
  });

  it('takes a password from standard input or SLIPWAY_PASSWORD, never needing the flag', async () => {
    const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--name', 'p'];
    const piped = await cli([...login, '--password-stdin', '--json'], {}, `${PASSWORD}\n`);
    expect(piped.json).toMatchObject({ ok: true, data: { authMethod: 'session' } });
    const fromEnv = await cli([...login, '--json'], { SLIPWAY_PASSWORD: PASSWORD });
    expect(fromEnv.json).toMatchObject({ ok: true, data: { authMethod: 'session' } });
    // No terminal to ask on and nothing given: a clear refusal, not a hang.
    const none = await cli(login);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--password-stdin');
  });

  it('lists approval requests by service name, not id', async () => {
    await cli(['login', '--url', t.url, '--token', token, '--name', 'q']);
    const request = await cli([
      'approvals',
      'request',
      '--action',
      'deploy',
      '--service',
      'api',
      '--image',
      'ghcr.io/acme/api:1.5.0',
      '--reason',
      'ship the fix for the login page',
      '--yes',
      '--json',
    ]);
    expect(request.json).toMatchObject({ ok: true });
    const list = await cli(['approvals', 'list']);
    expect(list.stdout).toContain('api@production');
  });

  it("mints an agent token with the agent's preset unless scopes are given, and says what is missing", async () => {
    await cli(['login', '--url', t.url, '--token', token, '--name', 'r']);
    const agent = await cli(['agents', 'create', 'ci-bot', '--yes', '--json']);
    const agentId = String(agent.json.data?.principalId);
    const minted = await cli([
      'tokens',
      'create',
      'ci',
      '--agent',
      agentId,
      '--expires-in-days',
      '30',
      '--yes',
      '--json',
    ]);
    expect(minted.json).toMatchObject({
      ok: true,
      data: { scopes: expect.arrayContaining(['deploy:read']) },
    });
    const noDays = await cli(['tokens', 'create', 'ci-2', '--agent', agentId, '--yes']);
    expect([noDays.code, noDays.stderr]).toEqual([1, expect.stringContaining('--expires-in-days')]);
    const noScopes = await cli(['tokens', 'create', 'mine', '--yes']);
    expect([noScopes.code, noScopes.stderr]).toEqual([1, expect.stringContaining('--scopes')]);
  });
});
