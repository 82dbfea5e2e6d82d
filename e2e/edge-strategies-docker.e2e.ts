import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { startEdgeSuite, traffic, viaEdge, type EdgeSuite } from './support/edge.js';
import { call } from './support/identity.js';
import { freePort } from './support/ports.js';
import { deployAndWait } from './support/sshd.js';

const EDGE = 'slipway-edge';
const PROJECT = 'scale-production';
const HOST = 'scale.example.test';

interface Details {
  status: string;
  failureReason: string | null;
  steps: { step: string; ok: boolean | null }[];
}

/**
 * How a routed service's replicas and its strategy meet the edge proxy, on the real Docker
 * engine over a real sshd with Debian's Caddy: a gapless deployment starts as many new
 * containers as the definition's replicas and switches the proxy to all of them; a service
 * switched to `recreate` after gapless deployments is dialled by its alias again once compose
 * replaced its containers.
 */
describe('the edge proxy with replicas and a change of strategy', () => {
  let suite: EdgeSuite;
  let serviceId: string;
  let edgePort: number;

  const image = (tag: string) => suite.image(tag);
  const compose = (tag: string, extra = '') =>
    `services:\n  web:\n    image: ${image(tag)}\n    deploy:\n      replicas: 2\n${extra}`;
  const running = () => suite.engine.running(PROJECT);
  const deploy = (tag: string) =>
    deployAndWait<Details>(suite.t, suite.owner, serviceId, image(tag));

  beforeAll(async () => {
    edgePort = await freePort();
    suite = await startEdgeSuite({ project: PROJECT, publish: [`127.0.0.1:${edgePort}:80`] });
    const { t, owner, serverId, engine } = suite;
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'scale',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: compose('1.0.0'),
        routes: [{ domain: HOST, service: 'web', port: 80, tls: 'off' }],
      }),
    ).serviceId;
  }, 5 * 60_000);
  afterAll(() => suite?.stop());

  it('starts as many new containers as the replicas asked, and switches to all of them', async () => {
    const first = await deploy('1.0.0');
    expect([first.status, first.failureReason]).toEqual(['succeeded', null]);
    expect(running().map((c) => c.split(' ')[1])).toEqual([image('1.0.0'), image('1.0.0')]);
    const load = traffic(edgePort, [HOST]);
    const second = await deploy('1.1.0');
    const { answers, failures } = await load.stop();
    expect([second.status, second.failureReason]).toEqual(['succeeded', null]);
    expect(failures).toEqual([]);
    expect(Object.keys(answers).sort()).toEqual(['200 1.0.0', '200 1.1.0']);
    // Two new containers, both of the new version; the old two retired; the proxy sends to both.
    expect(running().map((c) => c.split(' ')[1])).toEqual([image('1.1.0'), image('1.1.0')]);
    const config = JSON.parse(
      suite.engine.docker(['exec', EDGE, 'cat', '/etc/slipway-edge/caddy.json']),
    ) as {
      apps: { http: { servers: { edge: { routes: { handle: { upstreams?: unknown[] }[] }[] } } } };
    };
    expect(config.apps.http.servers.edge.routes[0].handle[0].upstreams).toHaveLength(2);
  });

  it('dials the alias again once a service marked recreate was replaced in place', async () => {
    const update = await call(suite.t.url, 'POST', 'updateService', suite.owner, {
      serviceId,
      compose: compose('1.1.0', '    x-slipway:\n      strategy: recreate\n'),
    });
    expect(update.status).toBe(200);
    const done = await deploy('1.0.0');
    expect([done.status, done.failureReason]).toEqual(['succeeded', null]);
    expect(done.steps.map((s) => s.step)).toContain('edge-unpin');
    expect(done.steps.map((s) => s.step)).not.toContain('start-new');
    // The containers pinned by the gapless deployments are gone; the new ones answer by alias.
    expect(await viaEdge(edgePort, HOST, '/version')).toBe('200 1.0.0');
  });
});
