import { readFileSync } from 'node:fs';
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
import { closedPort } from './support/ssh-endpoints.js';
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

interface Plan {
  isReady: boolean;
  preflightChecks: { check: string; status: string; detail: string }[];
}

const reachable = (plan: Plan) => plan.preflightChecks.find((c) => c.check === 'server-reachable');

describe('server checks: approval, checkServer and plans against a real sshd', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let off: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;
  let readOnly: Record<string, string>;

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({
      notes: false,
      config: { serverAddressPolicy: ALLOW_LOOPBACK, serverCheckTimeoutSeconds: 10 },
    });
    const account = await signUp(t.url, 'owner@example.com');
    owner = cookieAuth(account.cookie);
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
    readOnly = bearer(
      (await createToken(t.url, account.cookie, ['server:read', 'deploy:read', 'deploy:plan'], 1))
        .token,
    );
    // The test apps' default: server checks off.
    off = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await off?.close();
    await sshd?.stop();
  });

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

  describe('trust on first use, then approval that reports the connection', () => {
    it('pins the scanned key; check before approval only exchanges keys; approval logs in', async () => {
      const { fingerprint } = data<{ fingerprint: string }>(
        await call(t.url, 'POST', 'scanServerHostKey', owner, { host: sshd.host, port: sshd.port }),
      );
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
