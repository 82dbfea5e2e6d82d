import { flushRefusals } from './support/audit.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { ROUTE_ACCESS, type RouteAccessDeclaration } from '../src/kernel/route-access.js';
import { ProcedureRegistry } from '../src/rpc/procedure-registry.js';
import { COMPOSE, FINGERPRINT, PRIVATE_KEY, data } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { closedPort } from './support/ssh-endpoints.js';
import { ALLOW_LOOPBACK } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface DeclaredRoute {
  method: RequestMethod;
  /** `/api/v1/servers/:id/check` */
  path: string;
  declaration: RouteAccessDeclaration | undefined;
}

const joinPath = (...parts: unknown[]) =>
  `/${parts
    .filter((p): p is string => typeof p === 'string' && p !== '' && p !== '/')
    .map((p) => p.replace(/^\/|\/$/g, ''))
    .join('/')}`;

/** Every route handler of the application, as Nest has it declared. */
function declaredRoutes(t: TestApp): DeclaredRoute[] {
  const scanner = new MetadataScanner();
  const routes: DeclaredRoute[] = [];
  for (const wrapper of t.app.get(DiscoveryService).getControllers()) {
    const type = wrapper.metatype as (new (...args: never[]) => unknown) | null;
    if (!type) continue;
    for (const name of scanner.getAllMethodNames(type.prototype)) {
      const handler = (type.prototype as Record<string, unknown>)[name] as object;
      const path: unknown = Reflect.getMetadata(PATH_METADATA, handler);
      if (path === undefined) continue;
      routes.push({
        method: Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod,
        path: joinPath(Reflect.getMetadata(PATH_METADATA, type), path),
        declaration:
          Reflect.getMetadata(ROUTE_ACCESS, handler) ?? Reflect.getMetadata(ROUTE_ACCESS, type),
      });
    }
  }
  return routes;
}

/**
 * GET (and HEAD) never change state: a page on another site can make a browser send them with
 * the user's cookie, and nothing guards them against that. So every GET route and every query
 * procedure is declared in the read lanes, and calling each one appends no event.
 */
describe('no GET changes state', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let ids: Record<'servers' | 'services' | 'deployments', string>;

  const head = () => t.app.get<EventStore>(EVENT_STORE).headPosition();
  const eventsSince = async (position: bigint) =>
    (await t.app.get<EventStore>(EVENT_STORE).readAll(position + 1n, 1000)).map(
      (e) => `${e.type} on ${e.stream}`,
    );

  beforeAll(async () => {
    t = await startTestApp({
      notes: false,
      // Server checks on, against a loopback port nobody listens on: a check fails fast, and is
      // still recorded (which is what a GET must never cause).
      config: { serverAddressPolicy: ALLOW_LOOPBACK, serverCheckTimeoutSeconds: 5 },
    });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const { serverId } = data<{ serverId: string }>(
      await call(t.url, 'POST', 'registerServer', owner, {
        name: 'edge',
        host: '127.0.0.1',
        sshPort: await closedPort(),
        sshUser: 'deploy',
        privateKey: PRIVATE_KEY,
        hostKeyFingerprint: FINGERPRINT,
      }),
    );
    data(
      await call(t.url, 'POST', 'approveServerHostKey', owner, {
        serverId,
        fingerprint: FINGERPRINT,
      }),
    );
    const { serviceId } = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'api',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      }),
    );
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.0.0',
      }),
    );
    ids = { servers: serverId, services: serviceId, deployments: deploymentId };
  }, 30_000);
  afterAll(async () => t?.close());

  it('declares every GET route in the read lane, and every command route with another method', () => {
    const routes = declaredRoutes(t);
    expect(routes.filter((r) => r.method === RequestMethod.GET).length).toBeGreaterThan(5);
    const misdeclared = routes
      .filter((r) => r.declaration?.auth === 'guarded')
      .filter((r) => {
        const declaration = r.declaration as Extract<RouteAccessDeclaration, { auth: 'guarded' }>;
        const isGet = r.method === RequestMethod.GET || r.method === RequestMethod.HEAD;
        return isGet === (declaration.lane === 'command');
      })
      .map((r) => `${RequestMethod[r.method]} ${r.path}`);
    expect(misdeclared).toEqual([]);
  });

  it('serves only read and planning procedures to GET; every command answers GET with 405', async () => {
    const procedures = t.app.get(ProcedureRegistry).list();
    expect(
      procedures.filter((p) => (p.method === 'GET') === (p.lane === 'command')).map((p) => p.name),
    ).toEqual([]);
    const before = await head();
    const commands = procedures.filter((q) => q.lane === 'command');
    expect(commands.length).toBeGreaterThan(10);
    for (const p of commands) {
      const res = await request(t.url).get(`/trpc/${p.name}`).set(owner);
      expect([p.name, res.status, res.body.error?.code]).toEqual([
        p.name,
        405,
        'METHOD_NOT_SUPPORTED',
      ]);
      // One coalescing window per refusal: past 64 kinds in one window, a client's refusals
      // would share the overflow kind, and this asks about each command's own record.
      await flushRefusals(t);
    }
    // Each refusal is recorded (the audit trail's own stream), and nothing else is.
    const written = await eventsSince(before);
    expect(written.filter((e) => e !== 'CommandRejected on audit-refusals')).toEqual([]);
  }, 60_000);

  it('calls every GET route and query procedure as the owner, on real resources, and nothing is appended', async () => {
    const targets = declaredRoutes(t)
      // The OpenID Connect callback is a GET because the protocol makes it one (the provider
      // sends the browser there): it signs people in and records refused sign-ins, which
      // e2e/sso-oidc.e2e.ts tests.
      .filter((r) => r.path !== '/api/auth/sso/callback')
      .filter((r) => r.method === RequestMethod.GET && !r.path.includes(':name'))
      .map((r) =>
        r.path.replace(/\/api\/v1\/(\w+)\/:id/, (_m, kind: keyof typeof ids) => {
          return `/api/v1/${kind}/${ids[kind] ?? '00000000-0000-4000-8000-000000000000'}`;
        }),
      );
    // Once a GET that connected to the server: kept in the walk, so it cannot come back as one.
    targets.push(`/api/v1/servers/${ids.servers}/check`);
    const queries = t.app
      .get(ProcedureRegistry)
      .list()
      .filter((p) => p.method === 'GET')
      .map((p) => p.path);
    const before = await head();
    const answered: string[] = [];
    for (const path of [...targets, ...queries]) {
      answered.push(`${path} ${await touch(path)}`);
    }
    expect(answered.length).toBeGreaterThan(queries.length + 5);
    expect(await eventsSince(before)).toEqual([]);
  }, 120_000);

  /** GETs `path` with the owner's cookie; a stream is closed as soon as it answers. */
  async function touch(path: string): Promise<number> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 20_000);
    try {
      const res = await fetch(`${t.url}${path}`, {
        headers: owner,
        signal: abort.signal,
        redirect: 'manual',
      });
      if (res.headers.get('content-type')?.startsWith('text/event-stream')) abort.abort();
      else await res.arrayBuffer();
      return res.status;
    } finally {
      clearTimeout(timer);
    }
  }

  describe('the server check connects to the server, so it is a POST', () => {
    const checkPath = () => `/api/v1/servers/${ids.servers}/check`;

    it('does not answer GET, and a GET appends nothing', async () => {
      const before = await head();
      const res = await request(t.url).get(checkPath()).set(owner);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(await eventsSince(before)).toEqual([]);
    });

    it('refuses a cross-site POST with the session cookie, appending only the refusal', async () => {
      for (const headers of [
        { Origin: 'https://evil.example' },
        { 'Sec-Fetch-Site': 'cross-site' },
      ]) {
        const before = await head();
        const res = await request(t.url)
          .post(checkPath())
          .set({ ...owner, ...headers });
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', data: { reason: 'CROSS_SITE' } });
        const written = await eventsSince(before);
        expect(written.filter((e) => !e.startsWith('AccessDenied '))).toEqual([]);
      }
    });

    it('connects on a same-origin POST, records the check, and refuses a body', async () => {
      const before = await head();
      const res = await request(t.url).post(checkPath()).set(owner);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        serverId: ids.servers,
        ok: false,
        docker: null,
      });
      const written = await eventsSince(before);
      expect(written.map((e) => e.split(' ')[0])).toEqual(['ServerConnectionChecked']);
      expect((await request(t.url).post(checkPath()).set(owner).send({})).status).toBe(200);
      const bad = await request(t.url).post(checkPath()).set(owner).send({ serverId: 'x' });
      expect([bad.status, bad.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    });
  });
});
