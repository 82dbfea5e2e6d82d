import type { Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { allEvents } from './support/audit.js';
import { data } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import { closedPort, listener } from './support/ssh-endpoints.js';
import { ALLOW_LOOPBACK, startSshd, type TestSshd } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Scan {
  host: string;
  port: number;
  address: string | null;
  ok: boolean;
  fingerprint: string | null;
  keyType: string | null;
  latencyMs: number | null;
  error: { class: string; message: string } | null;
}

describe('scanServerHostKey: the host key fingerprint, fetched by Slipway from a real sshd', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;
  let viewer: Record<string, string>;
  let readOnly: Record<string, string>;
  let writer: Record<string, string>;
  const servers: Server[] = [];

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({
      notes: false,
      config: { serverAddressPolicy: ALLOW_LOOPBACK, serverCheckTimeoutSeconds: 10 },
    });
    const account = await signUp(t.url, 'owner@example.com');
    owner = cookieAuth(account.cookie);
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
    viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    readOnly = bearer(
      (await createToken(t.url, account.cookie, ['server:read', 'deploy:read', 'deploy:plan'], 1))
        .token,
    );
    writer = bearer((await createToken(t.url, account.cookie, ['server:write'], 1)).token);
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) server.close();
    await t?.close();
    await sshd?.stop();
  });

  const scan = async (auth: Record<string, string>, host: string, port?: number) =>
    call(t.url, 'POST', 'scanServerHostKey', auth, port === undefined ? { host } : { host, port });

  describe('keyscan', () => {
    it('fetches the fingerprint ssh-keygen -lf prints for the host key, and records the scan', async () => {
      const res = await scan(writer, sshd.host, sshd.port);
      const scanned = data<Scan>(res);
      expect(scanned).toEqual({
        host: '127.0.0.1',
        port: sshd.port,
        address: '127.0.0.1',
        ok: true,
        fingerprint: sshd.fingerprint,
        keyType: 'ssh-ed25519',
        latencyMs: expect.any(Number),
        error: null,
      });
      const recorded = (await allEvents(t)).filter(
        (e) =>
          e.type === 'ServerHostKeyScanned' && e.metadata.requestId === res.headers['x-request-id'],
      );
      expect(recorded.map((e) => e.data)).toEqual([
        {
          host: '127.0.0.1',
          port: sshd.port,
          address: '127.0.0.1',
          fingerprint: sshd.fingerprint,
          keyType: 'ssh-ed25519',
          failure: null,
        },
      ]);
    });

    it('reports why there is no key: the cause for an owner, one sentence for an operator', async () => {
      const port = await closedPort();
      expect(data<Scan>(await scan(owner, '127.0.0.1', port))).toMatchObject({
        ok: false,
        fingerprint: null,
        address: '127.0.0.1',
        error: { class: 'refused' },
      });
      expect(data<Scan>(await scan(operator, '127.0.0.1', port))).toEqual({
        host: '127.0.0.1',
        port,
        address: null,
        ok: false,
        fingerprint: null,
        keyType: null,
        latencyMs: null,
        error: { class: 'connect-failed', message: `no SSH host key from 127.0.0.1:${port}` },
      });
      const http = await listener('http');
      servers.push(http.server);
      expect(data<Scan>(await scan(owner, '127.0.0.1', http.port)).error?.class).toBe(
        'no-ssh-server',
      );
      expect(data<Scan>(await scan(owner, 'nothing-here.invalid')).error?.class).toBe('unresolved');
    });

    it('gives up on a silent endpoint within the timeout', async () => {
      const silent = await listener('silent');
      servers.push(silent.server);
      t.config.serverCheckTimeoutSeconds = 1;
      try {
        const started = Date.now();
        const scanned = data<Scan>(await scan(owner, '127.0.0.1', silent.port));
        expect(scanned.error?.class).toBe('timeout');
        expect(Date.now() - started).toBeLessThan(5_000);
      } finally {
        t.config.serverCheckTimeoutSeconds = 10;
      }
    });

    it('refuses an address the server address policy refuses with 400 on host, connecting nowhere', async () => {
      for (const host of ['169.254.169.254', '0.0.0.0', '[fe80::1]', '224.0.0.1']) {
        const res = await scan(owner, host, 22);
        expect([host, res.status, res.body.error?.code]).toEqual([host, 400, 'BAD_REQUEST']);
        expect(res.body.error.data.issues).toEqual([
          { path: 'host', message: expect.stringMatching(/address policy refuses/) },
        ]);
      }
    });

    it.each([
      ['null host', { host: null }],
      ['no host', { port: 22 }],
      ['a number for host', { host: 42 }],
      ['an oversized host', { host: `${'a'.repeat(60)}.`.repeat(5) + 'example.com' }],
      ['a host with a space', { host: 'evil host' }],
      ['an option as host', { host: '-oProxyCommand=touch' }],
      ['port 0', { host: '10.0.0.1', port: 0 }],
      ['port 65536', { host: '10.0.0.1', port: 65536 }],
      ['a port string', { host: '10.0.0.1', port: '22' }],
      ['a fractional port', { host: '10.0.0.1', port: 22.5 }],
      ['null port', { host: '10.0.0.1', port: null }],
      ['an unknown field', { host: '10.0.0.1', user: 'root' }],
    ])('answers 400 to %s', async (_what, input) => {
      const res = await call(t.url, 'POST', 'scanServerHostKey', owner, input);
      expect([res.status, res.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    });
  });

  describe('who may make Slipway connect', () => {
    it.each(['scanServerHostKey', 'checkServer'])(
      '%s: 401 without credentials, 403 for a read-only token and a viewer',
      async (name) => {
        const input =
          name === 'scanServerHostKey'
            ? { host: sshd.host, port: sshd.port }
            : { serverId: '00000000-0000-4000-8000-000000000000' };
        const none = await call(t.url, 'POST', name, {}, input);
        expect([none.status, none.body.error.code]).toEqual([401, 'AUTH_REQUIRED']);
        const token = await call(t.url, 'POST', name, readOnly, input);
        expect([token.status, token.body.error.code]).toEqual([403, 'FORBIDDEN']);
        expect(token.body.error.data).toMatchObject({
          requiredScopes: ['server:write'],
          grantedScopes: expect.not.arrayContaining(['server:write']),
        });
        const session = await call(t.url, 'POST', name, viewer, input);
        expect([session.status, session.body.error.code]).toEqual([403, 'FORBIDDEN']);
        const get = await call(t.url, 'GET', name, owner, input);
        expect(get.status).toBe(405);
      },
    );

    it('records no scan for a refused caller', async () => {
      const before = (await allEvents(t)).filter((e) => e.type === 'ServerHostKeyScanned').length;
      await scan(readOnly, sshd.host, sshd.port);
      await scan(viewer, sshd.host, sshd.port);
      const after = (await allEvents(t)).filter((e) => e.type === 'ServerHostKeyScanned').length;
      expect(after).toBe(before);
    });
  });
});
