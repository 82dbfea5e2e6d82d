import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli as runCli, cliHome, shell as runShell, type CliResult } from './support/cli.js';
import { COMPOSE, data } from './support/deployments.js';
import { call, cookieAuth, createToken, signUp } from './support/identity.js';
import { closedPort } from './support/ssh-endpoints.js';
import { ALLOW_LOOPBACK, startSshd, type TestSshd } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** From install to a checked server without ssh-keygen: the real binary against a real sshd. */
describe('slipway servers keyscan, register, approve-host-key, check (the real binary)', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let home: string;
  let keyFile: string;
  let owner: Record<string, string>;
  let env: Record<string, string>;
  let readOnly: Record<string, string>;
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
    owner = cookieAuth(account.cookie);
    const scopes = ['server:read', 'server:write', 'service:write', 'deploy:plan', 'deploy:read'];
    const { token } = await createToken(t.url, account.cookie, scopes, 1);
    env = { SLIPWAY_URL: t.url, SLIPWAY_TOKEN: token };
    const viewerOnly = await createToken(t.url, account.cookie, ['server:read', 'deploy:plan'], 1);
    readOnly = { SLIPWAY_URL: t.url, SLIPWAY_TOKEN: viewerOnly.token };
    keyFile = join(home, 'deploy_key');
    writeFileSync(keyFile, sshd.clientKey, { mode: 0o600 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const port = () => String(sshd.port);

  it('keyscan prints the fingerprint, where to compare it, and the command to register it', async () => {
    const run = await cli(['servers', 'keyscan', '127.0.0.1', '--port', port()]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain(
      `127.0.0.1:${sshd.port} (127.0.0.1) presents ssh-ed25519 host key`,
    );
    expect(run.stdout).toContain(`  ${sshd.fingerprint}\n`);
    expect(run.stdout).toContain('ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub');
    expect(run.stdout).toContain(
      `Then: slipway servers register NAME --host 127.0.0.1 --port ${sshd.port} --user USER --key-file KEY_FILE --fingerprint ${sshd.fingerprint} --yes`,
    );
    const json = await cli(['servers', 'keyscan', '127.0.0.1', '--port', port(), '--json']);
    expect(json.json).toMatchObject({
      ok: true,
      data: { fingerprint: sshd.fingerprint, keyType: 'ssh-ed25519', registered: [] },
    });
  });

  it('keyscan refuses bad ports itself, refused addresses and dead ends with one line each', async () => {
    for (const bad of ['0', '65536', 'ssh', '22.5']) {
      const run = await cli(['servers', 'keyscan', '127.0.0.1', '--port', bad]);
      expect([bad, run.code, run.stderr]).toEqual([
        bad,
        1,
        expect.stringMatching(/^slipway: BAD_USAGE: --port must be a port number/),
      ]);
    }
    const metadata = await cli(['servers', 'keyscan', '169.254.169.254']);
    expect(metadata.code).toBe(1);
    expect(metadata.stderr.split('\n')).toEqual([
      'slipway: BAD_REQUEST: The server address is refused',
      expect.stringMatching(/^ {2}host: 169\.254\.169\.254 is a metadata address/),
      '',
    ]);
    const closed = String(await closedPort());
    const dead = await cli(['servers', 'keyscan', '127.0.0.1', '--port', closed, '--json']);
    expect(dead.code).toBe(1);
    expect(dead.json.error).toMatchObject({
      code: 'NO_HOST_KEY',
      message: expect.stringMatching(
        new RegExp(`^No SSH host key from 127\\.0\\.0\\.1:${closed}: refused: `),
      ),
    });
  });

  it('keyscan and check need server:write: exit 2 with FORBIDDEN for a read-only token', async () => {
    const scan = await cli(
      ['servers', 'keyscan', '127.0.0.1', '--port', port(), '--json'],
      readOnly,
    );
    expect([scan.code, scan.json.error?.code]).toEqual([2, 'FORBIDDEN']);
    const check = await cli(
      ['servers', 'check', '00000000-0000-4000-8000-000000000000', '--json'],
      readOnly,
    );
    expect([check.code, check.json.error?.code]).toEqual([2, 'FORBIDDEN']);
  });

  it('registers with the fetched key only once confirmed; the printed approval runs as shown and checks the connection', async () => {
    const register = ['servers', 'register', 'box', '--host', '127.0.0.1', '--port', port()];
    register.push('--user', sshd.user, '--key-file', keyFile);
    const unconfirmed = await cli(register);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain(`presents ssh-ed25519 host key\n  ${sshd.fingerprint}\n`);
    expect(unconfirmed.stderr).toMatch(
      /slipway: CONFIRMATION_REQUIRED: Trust host key SHA256:\S+ and register server box: pass --yes/,
    );
    const none = data<{ servers: unknown[] }>(
      await call(t.url, 'GET', 'infrastructureInventory', owner),
    );
    expect(none.servers).toEqual([]);

    const registered = await cli([...register, '--yes', '--json']);
    expect(registered.code).toBe(0);
    const approve = `slipway servers approve-host-key box ${sshd.fingerprint} --yes`;
    expect(registered.json.data).toMatchObject({
      status: 'pending-host-key',
      hostKeyFingerprint: sshd.fingerprint,
      scanned: true,
      next: approve,
    });

    // Before approval: keyscan points at the approval; check exchanges keys but does not log in.
    const rescan = await cli(['servers', 'keyscan', '127.0.0.1', '--port', port()]);
    expect(rescan.stdout).toContain('Server box pins this key (pending-host-key).');
    expect(rescan.stdout).toContain(`Then: ${approve}`);
    const early = await cli(['servers', 'check', 'box']);
    expect(early.code).toBe(0);
    expect(early.stdout).toMatch(/authenticated +not tried: the host key is not approved yet/);

    const approved = await runShell(home, approve, home, env);
    expect(approved.code).toBe(0);
    expect(approved.json.data).toMatchObject({
      status: 'ready',
      connection: { ok: true, mode: 'login', authenticated: true, hostKeyMatches: true },
    });
    // Approving again changes nothing and checks again, for people this time.
    const human = await cli(['servers', 'approve-host-key', 'box', sshd.fingerprint, '--yes']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Host key approved; box is ready.');
    expect(human.stdout).toContain(
      `Connection check: box (${sshd.user}@127.0.0.1:${sshd.port}): ok`,
    );
    expect(human.stdout).toMatch(/authenticated +yes/);
  });

  it('check connects as a deployment would and says how it went; servers list shows it', async () => {
    const run = await cli(['servers', 'check', 'box']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/reachable +yes \(127\.0\.0\.1, \d+ ms\)/);
    expect(run.stdout).toContain(`matches the pinned ${sshd.fingerprint}`);
    expect(run.stdout).toMatch(/authenticated +yes/);
    const json = await cli(['servers', 'check', 'box', '--json']);
    expect(json.json).toMatchObject({ ok: true, data: { ok: true, authenticated: true } });
    const list = await cli(['servers', 'list']);
    expect(list.stdout).toMatch(/box .* ok \d+ ms at \d{4}-\d\d-\d\d \d\d:\d\d/);
  });

  it('check --versions asks the REST check (a POST, diagnostics:read) and adds what it found', async () => {
    const { token } = await createToken(
      t.url,
      owner.Cookie,
      ['server:read', 'diagnostics:read'],
      1,
    );
    const run = await cli(['servers', 'check', 'box', '--versions', '--json'], {
      SLIPWAY_TOKEN: token,
    });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.json).toMatchObject({ ok: true, data: { ok: true, authenticated: true } });
    // This sshd has no Docker: the versions are reported as unknown, not left out.
    expect(run.json.data).toMatchObject({ docker: null, compose: null });
  });

  it('check exits 1 with CHECK_FAILED and the cause when the server does not answer', async () => {
    const closed = String(await closedPort());
    const register = ['servers', 'register', 'gone', '--host', '127.0.0.1', '--port', closed];
    register.push('--user', sshd.user, '--key-file', keyFile);
    register.push('--fingerprint', sshd.fingerprint, '--yes');
    expect((await cli(register)).code).toBe(0);
    const approved = await cli(['servers', 'approve-host-key', 'gone', sshd.fingerprint, '--yes']);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Connection check failed (the approval stands): gone');
    expect(approved.stdout).toContain('When it is fixed: slipway servers check gone');

    const run = await cli(['servers', 'check', 'gone']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^slipway: CHECK_FAILED: gone \\(${sshd.user}@127\\.0\\.0\\.1:${closed}\\): refused: `,
      ),
    );
    const json = await cli(['servers', 'check', 'gone', '--json']);
    expect(json.json.error).toMatchObject({
      code: 'CHECK_FAILED',
      data: { check: { ok: false, reachable: false, error: { class: 'refused' } } },
    });
  });

  it('plan deploy checks that the server answers: ok on box, not ready (exit 3) on gone', async () => {
    for (const server of ['box', 'gone']) {
      const serverId = data<{ servers: { id: string; name: string }[] }>(
        await call(t.url, 'GET', 'infrastructureInventory', owner),
      ).servers.find((s) => s.name === server)!.id;
      data(
        await call(t.url, 'POST', 'registerService', owner, {
          name: `api-${server}`,
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
        }),
      );
    }
    const ready = await cli(['plan', 'deploy', 'api-box', 'ghcr.io/acme/api:1.0.0', '--json']);
    expect(ready.code).toBe(0);
    expect(
      (ready.json.data as { preflightChecks: { check: string; status: string }[] }).preflightChecks,
    ).toContainEqual(expect.objectContaining({ check: 'server-reachable', status: 'ok' }));
    const human = await cli(['plan', 'deploy', 'api-box', 'ghcr.io/acme/api:1.0.0']);
    expect(human.stdout).toMatch(/server-reachable .* ok .* SSH answered at 127\.0\.0\.1/);
    const notReady = await cli(['plan', 'deploy', 'api-gone', 'ghcr.io/acme/api:1.0.0']);
    expect(notReady.code).toBe(3);
    expect(notReady.stderr).toMatch(
      /PLAN_NOT_READY: The plan is not ready: server-reachable: refused: /,
    );
  });
});
