import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { startEdgeSuite, viaEdge as edgeRequest, type EdgeSuite } from './support/edge.js';
import type { DockerEngine } from './support/docker-engine.js';
import { rmSync } from 'node:fs';
import { cli, cliHome } from './support/cli.js';
import { call, createToken } from './support/identity.js';
import { freePort } from './support/ports.js';
import { deployAndWait, deploymentLog } from './support/sshd.js';
import type { TestApp } from './support/test-app.js';
import { EdgeWatch } from '../src/runner/edge/edge-watch.js';

interface Details {
  id: string;
  status: string;
  failedStep: string | null;
  failureReason: string | null;
  steps: { step: string; ok: boolean | null }[];
}
interface Sync {
  serverId: string;
  routes: number;
  actions: string[];
  configSha256: string;
}

const PROJECT = 'shop-production';
// Plain HTTP: these cases are about routing and cutover (TLS has its own suite).
const SHOP_ROUTE = [{ domain: 'shop.example.test', service: 'web', port: 80, tls: 'off' }];
const EDGE = 'slipway-edge';

/**
 * The edge proxy on a real Docker engine over a real sshd: Caddy (Debian's binary in a scratch
 * image, scripts/docker-engine.sh) run and configured by Slipway, routing a domain to a compose
 * service that publishes no port on the host.
 */
describe('the edge proxy routes domains to compose services', () => {
  let suite: EdgeSuite;
  let engine: DockerEngine;
  let t: TestApp;
  let owner: Record<string, string>;
  let serverId: string;
  let serviceId: string;
  let edgePort: number;
  let image: (tag: string) => string;
  let home: string;
  let cliEnv: Record<string, string>;

  const viaEdge = (host: string, path: string) => edgeRequest(edgePort, host, path);
  /** The running containers of a compose service of the stack, with their images. */
  const running = (service: string) => engine.running(PROJECT, service);
  /** Polls `check` every 100 ms for at most 20 s. */
  const until = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 20_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('never happened');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const deploy = (tag: string) => deployAndWait<Details>(t, owner, serviceId, image(tag));
  const logsOf = (deploymentId: string) => deploymentLog(t, owner, deploymentId);
  /** Registers another service of the same stack on the server, with these routes. */
  const register = (name: string, routes?: unknown[]) =>
    call(t.url, 'POST', 'registerService', owner, {
      name,
      environment: 'production',
      serverId,
      imageRepository: `${engine.registry}/acme/api`,
      compose: compose('1.0.0'),
      ...(routes ? { routes } : {}),
    });
  const sync = async () =>
    data<Sync>(await call(t.url, 'POST', 'syncServerEdge', owner, { serverId }));
  const compose = (tag: string, extra = '') =>
    `services:\n  web:\n    image: ${image(tag)}\n${extra}  worker:\n    image: ${image(tag)}\n`;

  beforeAll(async () => {
    edgePort = await freePort();
    suite = await startEdgeSuite({ project: PROJECT, publish: [`127.0.0.1:${edgePort}:80`] });
    ({ engine, t, owner, serverId, image } = suite);
    home = cliHome();
    const scopes = ['server:read', 'server:write', 'service:write'];
    cliEnv = {
      SLIPWAY_URL: t.url,
      SLIPWAY_TOKEN: (await createToken(t.url, suite.cookie, scopes, 1)).token,
    };
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'shop',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: compose('1.0.0'),
        routes: SHOP_ROUTE,
      }),
    ).serviceId;
  }, 5 * 60_000);
  afterAll(async () => {
    await suite?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('plans name the strategy of each compose service and warn of an unresolved domain', async () => {
    const plan = data<{
      preflightChecks: { check: string; status: string; detail: string }[];
      steps: string[];
    }>(await call(t.url, 'GET', 'deploymentPlan', owner, { serviceId, imageTag: image('1.0.0') }));
    const check = (name: string) => plan.preflightChecks.find((c) => c.check === name);
    expect(check('deploy-strategy')).toEqual({
      check: 'deploy-strategy',
      status: 'ok',
      detail:
        'web: gapless (no downtime; a failed new version is removed, the old one keeps serving); worker: recreate, no route: nothing to switch (down while it restarts; a failed new version leaves it down)',
    });
    expect(check('domains-resolve')).toEqual({
      check: 'domains-resolve',
      status: 'warn',
      detail: 'shop.example.test does not resolve',
    });
    expect(plan.steps).toContain(
      'start web beside the running version; wait for health checks and an HTTP answer on the edge network',
    );
  });

  it('starts the proxy with the first deployment and routes the domain to the new version', async () => {
    const done = await deploy('1.0.0');
    expect([done.status, done.failureReason]).toEqual(['succeeded', null]);
    expect(done.steps.map((s) => s.step)).toEqual([
      'connect',
      'write-compose',
      'write-env',
      'pull',
      'edge-sync',
      'start-new',
      'health-new',
      'probe-new',
      'switch',
      'drain',
      'retire',
      'up',
      'health',
      'record-digest',
      'prune-older',
    ]);
    expect(await viaEdge('shop.example.test', '/version')).toBe('200 1.0.0');
    expect(await viaEdge('other.example.test', '/version')).toBe('404 No route');
    // The routed service publishes nothing on the host; the worker is not on the edge network.
    const networks = (service: string) =>
      engine
        .docker([
          'inspect',
          '-f',
          '{{range $k, $v := .NetworkSettings.Networks}}{{$k}} {{end}}',
          `${PROJECT}-${service}-1`,
        ])
        .trim()
        .split(' ')
        .sort();
    expect(networks('web')).toEqual([`${PROJECT}_default`, EDGE]);
    expect(networks('worker')).toEqual([`${PROJECT}_default`]);
  }, 120_000);

  it('switches the proxy to the new version’s container once it is healthy', async () => {
    const before = engine.docker(['exec', EDGE, 'cat', '/etc/slipway-edge/caddy.json']);
    const done = await deploy('1.1.0');
    expect([
      done.status,
      done.failureReason,
      done.status === 'failed' ? await logsOf(done.id) : '',
    ]).toEqual(['succeeded', null, '']);
    expect(await viaEdge('shop.example.test', '/version')).toBe('200 1.1.0');
    // It dials the new container's address on the edge network: no name lookup per request.
    const [web] = running('web');
    const address = engine
      .docker([
        'inspect',
        '-f',
        `{{(index .NetworkSettings.Networks "${EDGE}").IPAddress}}`,
        web.split(' ')[0],
      ])
      .trim();
    // It reads that address from a slot file at each request: the switch rewrote the file and
    // loaded no configuration (a reload closes connections whose request was not read yet).
    const config = engine.docker(['exec', EDGE, 'cat', '/etc/slipway-edge/caddy.json']);
    expect(config).toBe(before);
    const slot = /\{file\.(\/etc\/slipway-edge\/upstreams\/[^}]+)\}:80/.exec(config)?.[1];
    expect(engine.docker(['exec', EDGE, 'cat', slot ?? 'no slot file']).trim()).toBe(address);
    expect(await logsOf(done.id)).toMatch(/edge proxy: \d+ routes?, switched/);
  }, 120_000);

  it('syncs idempotently, and is recorded each time it is asked', async () => {
    const first = await sync();
    const second = await sync();
    expect(first).toEqual({ serverId, routes: 1, actions: [], configSha256: expect.any(String) });
    expect(second).toEqual(first);
  });

  it('notices a proxy removed by hand and brings it back with the same routes', async () => {
    engine.docker(['rm', '-f', EDGE]);
    expect(await viaEdge('shop.example.test', '/version')).toMatch(/^unreachable/);
    // The periodic watch (SLIPWAY_EDGE_WATCH_SECONDS; off in this suite, so one pass by hand).
    await t.app.get(EdgeWatch).tick();
    expect(await viaEdge('shop.example.test', '/version')).toBe('200 1.1.0');
    const details = data<{ edge: { reason: string; actions: string[]; ok: boolean } }>(
      await call(t.url, 'GET', 'serverDetails', owner, { serverId }),
    );
    expect(details.edge).toMatchObject({ reason: 'watch', actions: ['started'], ok: true });
    // A pass that finds it all in place records nothing.
    await t.app.get(EdgeWatch).tick();
    const after = data<{ edge: { syncedAt: string } }>(
      await call(t.url, 'GET', 'serverDetails', owner, { serverId }),
    );
    expect(after.edge.syncedAt).toBe((details.edge as unknown as { syncedAt: string }).syncedAt);
  }, 60_000);

  it('loads changed routes without restarting the proxy (the CLI)', async () => {
    const started = engine.docker(['inspect', '-f', '{{.State.StartedAt}}', EDGE]).trim();
    const update = await cli(
      home,
      [
        'services',
        'update',
        'shop@production',
        '--yes',
        '--route',
        'shop.example.test=web:80,no-tls',
        '--route',
        'api.example.test/version=worker:80,no-tls',
      ],
      cliEnv,
    );
    expect([update.code, update.stderr]).toEqual([0, '']);
    // The route change reaches the proxy by itself (the reaction to the service's update).
    await until(async () => (await viaEdge('api.example.test', '/version')) === '200 1.1.0');
    type Edge = { edge: { routes: number; ok: boolean; reason: string; actions: string[] } };
    const edge = async () =>
      data<Edge>(await call(t.url, 'GET', 'serverDetails', owner, { serverId })).edge;
    await until(async () => (await edge()).reason === 'routes');
    expect(await edge()).toMatchObject({
      routes: 2,
      ok: true,
      reason: 'routes',
      actions: ['reloaded', `connected ${PROJECT}/worker`],
    });
    const synced = await cli(home, ['servers', 'edge', 'sync', serverId], cliEnv);
    expect([synced.code, synced.stderr]).toEqual([0, '']);
    expect(synced.stdout.trim()).toBe(`Edge proxy of ${serverId}: 2 routes, already in sync`);
    expect(await viaEdge('api.example.test', '/version')).toBe('200 1.1.0');
    expect(await viaEdge('api.example.test', '/health')).toBe('404 No route');
    expect(engine.docker(['inspect', '-f', '{{.State.StartedAt}}', EDGE]).trim()).toBe(started);
    const again = await cli(home, ['servers', 'edge', 'sync', serverId, '--json'], cliEnv);
    expect(again.json).toMatchObject({ ok: true, data: { routes: 2, actions: [] } });
  }, 60_000);

  it('refuses routes that cannot work or that another service holds', async () => {
    const update = (routes: unknown[], more: Record<string, unknown> = {}) =>
      call(t.url, 'POST', 'updateService', owner, { serviceId, routes, ...more });
    const published = await update([{ domain: 'x.example.test', service: 'web', port: 80 }], {
      compose: compose('1.1.0', '    ports: ["127.0.0.1:18099:80"]\n'),
    });
    expect(published.status).toBe(400);
    expect(JSON.stringify(published.body)).toContain('publishes port 80 on the host');
    const missing = await update([{ domain: 'x.example.test', service: 'db', port: 5432 }]);
    expect(missing.status).toBe(400);
    const badDomain = await update([{ domain: 'Not A Domain', service: 'web', port: 80 }]);
    expect(badDomain.status).toBe(400);
    const other = await register('copycat', SHOP_ROUTE);
    expect(other.status).toBe(409);
    expect(JSON.stringify(other.body)).toContain('shop.example.test is routed to another service');
    // Nothing of the refused registration remains: its name is free.
    const retry = await register('copycat');
    expect(retry.status).toBe(200);
  });

  it('frees an archived service’s domains and stops routing them', async () => {
    const archived = await call(t.url, 'POST', 'archiveService', owner, { serviceId });
    expect(archived.status).toBe(200);
    await until(async () => (await viaEdge('shop.example.test', '/version')) === '404 No route');
    const synced = await sync();
    expect([synced.routes, synced.actions]).toEqual([0, []]);
    const taken = await register('heir', SHOP_ROUTE);
    expect(taken.status).toBe(200);
  });
});
