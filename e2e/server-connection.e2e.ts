import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { allEvents } from './support/audit.js';
import { COMPOSE, data } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import { ALLOW_LOOPBACK, startSshd, type TestSshd } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Report {
  ok: boolean;
  mode: 'login' | 'handshake';
  address: string | null;
  reachable: boolean | null;
  hostKeyMatches: boolean | null;
  authenticated: boolean | null;
  latencyMs: number | null;
  error: { class: string; message: string } | null;
}

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

interface Plan {
  isReady: boolean;
  preflightChecks: { check: string; status: string; detail: string }[];
}

const reachable = (plan: Plan) => plan.preflightChecks.find((c) => c.check === 'server-reachable');

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A loopback TCP server: `silent` accepts and never speaks; `http` answers as a web server. */
function listener(kind: 'silent' | 'http'): Promise<{ port: number; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      if (kind === 'http') socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    }).listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as { port: number }).port, server }),
    );
  });
}

describe('server checks: keyscan, connection check, approval and plans against a real sshd', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let off: TestApp;
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
    // The test apps' default: server checks off.
    off = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) server.close();
    await t?.close();
    await off?.close();
    await sshd?.stop();
  });

  const scan = async (auth: Record<string, string>, host: string, port?: number) =>
    call(t.url, 'POST', 'scanServerHostKey', auth, port === undefined ? { host } : { host, port });

  /** Registers a server at the test sshd (or `port`), pinning `fingerprint`; returns its id. */
  const register = async (
    name: string,
    options: { port?: number; fingerprint?: string; privateKey?: string } = {},
  ) =>
    data<{ serverId: string }>(
      await call(t.url, 'POST', 'registerServer', owner, {
        name,
        host: sshd.host,
        sshPort: options.port ?? sshd.port,
        sshUser: sshd.user,
        privateKey: options.privateKey ?? sshd.clientKey,
        hostKeyFingerprint: options.fingerprint ?? sshd.fingerprint,
      }),
    ).serverId;
  const approve = async (serverId: string, fingerprint = sshd.fingerprint) =>
    data<{ status: string; connection: (Report & { serverId: string }) | null }>(
      await call(t.url, 'POST', 'approveServerHostKey', owner, { serverId, fingerprint }),
    );

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

  describe('trust on first use, then approval that reports the connection', () => {
    it('pins the scanned key; check before approval only exchanges keys; approval logs in', async () => {
      const { fingerprint } = data<Scan>(await scan(owner, sshd.host, sshd.port));
      const serverId = await register('tofu', { fingerprint: fingerprint! });

      const before = data<Report & { target: string }>(
        await call(t.url, 'POST', 'checkServer', owner, { serverId }),
      );
      expect(before).toMatchObject({
        serverId,
        name: 'tofu',
        target: `${sshd.user}@127.0.0.1:${sshd.port}`,
        ok: true,
        mode: 'handshake',
        reachable: true,
        hostKeyMatches: true,
        authenticated: null,
        error: null,
      });

      const approved = await approve(serverId, fingerprint!);
      expect(approved.status).toBe('ready');
      expect(approved.connection).toMatchObject({
        serverId,
        ok: true,
        mode: 'login',
        address: '127.0.0.1',
        reachable: true,
        hostKeyMatches: true,
        authenticated: true,
        latencyMs: expect.any(Number),
        error: null,
      });

      const inventory = data<{ servers: { id: string; lastCheck: unknown }[] }>(
        await call(t.url, 'GET', 'infrastructureInventory', readOnly),
      );
      expect(inventory.servers.find((s) => s.id === serverId)?.lastCheck).toEqual({
        at: expect.any(String),
        mode: 'login',
        ok: true,
        latencyMs: expect.any(Number),
      });
      const checks = (await allEvents(t)).filter(
        (e) => e.type === 'ServerConnectionChecked' && e.data.serverId === serverId,
      );
      expect(checks.map((e) => [e.data.mode, e.data.ok])).toEqual([
        ['handshake', true],
        ['login', true],
      ]);
    });

    it('still refuses to approve another fingerprint than the pinned one', async () => {
      const serverId = await register('other-key');
      const res = await call(t.url, 'POST', 'approveServerHostKey', owner, {
        serverId,
        fingerprint: `SHA256:${'Z'.repeat(43)}`,
      });
      expect(res.status).toBe(409);
    });

    it('approves a server that does not answer yet, and says so', async () => {
      const serverId = await register('not-yet', { port: await closedPort() });
      const approved = await approve(serverId);
      expect(approved.status).toBe('ready');
      expect(approved.connection).toMatchObject({
        ok: false,
        reachable: false,
        authenticated: null,
        error: { class: 'refused' },
      });
    });
  });

  describe('checkServer', () => {
    it('tells a wrong client key from a wrong host key (owner), and an operator only that it failed', async () => {
      const strangerKey = readFileSync(join(sshd.dir, 'host_ed25519'), 'utf8');
      const badKey = await register('bad-key', { privateKey: strangerKey });
      await approve(badKey);
      const wrongHost = await register('wrong-host', { fingerprint: `SHA256:${'Q'.repeat(43)}` });
      await approve(wrongHost, `SHA256:${'Q'.repeat(43)}`);

      expect(
        data<Report>(await call(t.url, 'POST', 'checkServer', owner, { serverId: badKey })),
      ).toMatchObject({
        ok: false,
        mode: 'login',
        reachable: true,
        hostKeyMatches: true,
        authenticated: false,
        error: { class: 'auth-failed' },
      });
      expect(
        data<Report>(await call(t.url, 'POST', 'checkServer', owner, { serverId: wrongHost })),
      ).toMatchObject({
        ok: false,
        reachable: true,
        hostKeyMatches: false,
        authenticated: null,
        error: { class: 'host-key-mismatch' },
      });
      for (const serverId of [badKey, wrongHost]) {
        const seen = data<Report>(await call(t.url, 'POST', 'checkServer', operator, { serverId }));
        expect(seen).toMatchObject({
          ok: false,
          address: null,
          reachable: null,
          hostKeyMatches: null,
          authenticated: null,
          error: { class: 'connect-failed', message: 'could not connect to the server' },
        });
      }
    });

    it('answers 404 for an unknown server and 400 for a bad id', async () => {
      const unknown = await call(t.url, 'POST', 'checkServer', owner, {
        serverId: '00000000-0000-4000-8000-000000000000',
      });
      expect(unknown.status).toBe(404);
      for (const serverId of [null, 'not-a-uuid', 7]) {
        const bad = await call(t.url, 'POST', 'checkServer', owner, { serverId });
        expect([bad.status, bad.body.error.code]).toEqual([400, 'BAD_REQUEST']);
      }
    });
  });

  describe('plans look at the server', () => {
    const serviceOn = async (serverId: string, name: string) =>
      data<{ serviceId: string }>(
        await call(t.url, 'POST', 'registerService', owner, {
          name,
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
        }),
      ).serviceId;
    const planFor = async (auth: Record<string, string>, serviceId: string) =>
      data<Plan>(
        await call(t.url, 'GET', 'deploymentPlan', auth, {
          serviceId,
          imageTag: 'ghcr.io/acme/api:1.0.0',
        }),
      );

    it('passes for a server that answers with its pinned key, appending nothing', async () => {
      const serverId = await register('planned');
      await approve(serverId);
      const serviceId = await serviceOn(serverId, 'planned');
      const before = (await allEvents(t)).length;
      const plan = await planFor(readOnly, serviceId);
      expect(plan.isReady).toBe(true);
      expect(reachable(plan)).toEqual({
        check: 'server-reachable',
        status: 'ok',
        detail: expect.stringMatching(
          /^SSH answered at 127\.0\.0\.1 in \d+ ms with the pinned host key/,
        ),
      });
      expect((await allEvents(t)).length).toBe(before);
    });

    it('fails a plan whose server does not answer, the cause for an owner only', async () => {
      const serverId = await register('gone', { port: await closedPort() });
      await approve(serverId);
      const serviceId = await serviceOn(serverId, 'gone');
      const plan = await planFor(owner, serviceId);
      expect(plan.isReady).toBe(false);
      expect(reachable(plan)).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/^refused: /),
      });
      expect(reachable(await planFor(operator, serviceId))).toEqual({
        check: 'server-reachable',
        status: 'fail',
        detail: 'could not connect to the server',
      });
      const rollback = data<Plan>(await call(t.url, 'GET', 'rollbackPlan', owner, { serviceId }));
      // Nothing to roll back to: no connection is made for that.
      expect(reachable(rollback)).toBeUndefined();
    });
  });

  describe('with server checks off (SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS=0)', () => {
    it('refuses keyscans and checks with 409, approves without a report, plans with a warning', async () => {
      const ownerOff = cookieAuth((await signUp(off.url, 'owner@example.com')).cookie);
      const res = await call(off.url, 'POST', 'scanServerHostKey', ownerOff, {
        host: sshd.host,
        port: sshd.port,
      });
      expect([res.status, res.body.error.code]).toEqual([409, 'CONFLICT']);
      expect(res.body.error.message).toMatch(/SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS=0/);
      const { serverId } = data<{ serverId: string }>(
        await call(off.url, 'POST', 'registerServer', ownerOff, {
          name: 'quiet',
          host: sshd.host,
          sshPort: sshd.port,
          sshUser: sshd.user,
          privateKey: sshd.clientKey,
          hostKeyFingerprint: sshd.fingerprint,
        }),
      );
      const check = await call(off.url, 'POST', 'checkServer', ownerOff, { serverId });
      expect(check.status).toBe(409);
      expect(
        data(
          await call(off.url, 'POST', 'approveServerHostKey', ownerOff, {
            serverId,
            fingerprint: sshd.fingerprint,
          }),
        ),
      ).toEqual({ serverId, status: 'ready', connection: null });
      const { serviceId } = data<{ serviceId: string }>(
        await call(off.url, 'POST', 'registerService', ownerOff, {
          name: 'quiet',
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
        }),
      );
      const plan = data<Plan>(
        await call(off.url, 'GET', 'deploymentPlan', ownerOff, {
          serviceId,
          imageTag: 'ghcr.io/acme/api:1.0.0',
        }),
      );
      expect(plan.isReady).toBe(true);
      expect(reachable(plan)).toMatchObject({
        status: 'warn',
        detail: expect.stringMatching(/off/),
      });
      expect((await allEvents(off)).map((e) => e.type)).not.toContain('ServerConnectionChecked');
    });
  });
});
