import { rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli as runCli, cliHome, type CliResult } from './support/cli.js';
import { PASSWORD, cookieAuth, createToken, signUp } from './support/identity.js';
import { codeAt, enrol } from './support/mfa.js';
import { TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('slipway login, whoami and logout (the real binary)', () => {
  const clock = new TestClock();
  let t: TestApp;
  let home: string;
  let owner: Record<string, string>;
  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
    runCli(home, args, env);

  beforeAll(async () => {
    home = cliHome();
    t = await startTestApp({ notes: false, clock });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
  });
  afterAll(async () => {
    await t?.close();
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

  it('sends a stored credential only to its own server, and a token or password only over https or to this machine', async () => {
    const { token } = await createToken(t.url, owner.Cookie, ['deploy:read'], 1);
    const login = await runCli(
      home,
      ['login', '--url', t.url, '--token-stdin', '--name', 'own', '--json'],
      {},
      `${token}\n`,
    );
    expect([login.code, login.json]).toEqual([0, expect.objectContaining({ ok: true })]);
    // Another server named by SLIPWAY_URL alone (a repository's .envrc) hears nothing.
    const heard: string[] = [];
    const other = createServer((req, res) => {
      heard.push(String(req.headers.authorization ?? req.headers.cookie ?? 'nothing'));
      res.end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const moved = await cli(['whoami', '--context', 'own', '--json'], { SLIPWAY_URL: otherUrl });
      expect([moved.code, moved.json.error?.code]).toEqual([1, 'BAD_USAGE']);
      expect(heard).toEqual([]);
      // The same server named again is fine.
      const same = await cli(['whoami', '--context', 'own', '--json'], { SLIPWAY_URL: t.url });
      expect([same.code, same.json.ok]).toEqual([0, true]);
    } finally {
      other.close();
    }
    const plain = await cli([
      'login',
      '--url',
      'http://192.0.2.1:3000',
      '--token',
      token,
      '--json',
    ]);
    expect([plain.code, plain.json.error?.code]).toEqual([1, 'INSECURE_URL']);
    const password = await runCli(
      home,
      [
        'login',
        '--url',
        'http://slipway.example.com',
        '--email',
        'a@example.com',
        '--password-stdin',
        '--json',
      ],
      {},
      'secret\n',
    );
    expect(password.json.error?.code).toBe('INSECURE_URL');
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

  it('logs out and is then not logged in', async () => {
    expect((await cli(['logout', '--context', 'default', '--json'])).code).toBe(0);
    const after = await cli(['whoami', '--context', 'default', '--json']);
    expect(after.code).toBe(2);
  });
});
