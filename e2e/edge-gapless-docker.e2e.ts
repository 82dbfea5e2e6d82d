import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import {
  startEdgeSuite,
  traffic as edgeTraffic,
  viaEdge as edgeRequest,
  type EdgeSuite,
} from './support/edge.js';
import { call } from './support/identity.js';
import { freePort } from './support/ports.js';
import { deployAndWait, deploymentLog } from './support/sshd.js';

interface Details {
  id: string;
  status: string;
  failedStep: string | null;
  failureReason: string | null;
}

const PROJECT = 'stack-production';
const EDGE = 'slipway-edge';
const ROUTES = [
  { domain: 'shop.example.test', service: 'web', port: 80, tls: 'off' },
  { domain: 'api.example.test', pathPrefix: '/version', service: 'worker', port: 80, tls: 'off' },
];

/**
 * What clients of a routed two-container stack see while it is deployed again and again through
 * the edge proxy (Caddy on the real Docker engine, over a real sshd): every request answered,
 * by one version or the other, through twenty deploys and a deploy whose new version fails.
 */
describe('gapless deploys behind the edge proxy, under steady requests', () => {
  let suite: EdgeSuite;
  let serviceId: string;
  let edgePort: number;

  const image = (tag: string) => suite.image(tag);
  const compose = (tag: string, extra = '') =>
    `services:\n  web:\n    image: ${image(tag)}\n${extra}  worker:\n    image: ${image(tag)}\n`;
  const running = (service: string) => suite.engine.running(PROJECT, service);
  const traffic = (hosts: string[]) => edgeTraffic(edgePort, hosts);
  const viaEdge = (host: string, path: string) => edgeRequest(edgePort, host, path);
  const deploy = (tag: string) =>
    deployAndWait<Details>(suite.t, suite.owner, serviceId, image(tag));
  const logsOf = (deploymentId: string) => deploymentLog(suite.t, suite.owner, deploymentId);

  beforeAll(async () => {
    edgePort = await freePort();
    suite = await startEdgeSuite({ project: PROJECT, publish: [`127.0.0.1:${edgePort}:80`] });
    serviceId = data<{ serviceId: string }>(
      await call(suite.t.url, 'POST', 'registerService', suite.owner, {
        name: 'stack',
        environment: 'production',
        serverId: suite.serverId,
        imageRepository: `${suite.engine.registry}/acme/api`,
        compose: compose('1.0.0'),
        routes: ROUTES,
      }),
    ).serviceId;
  }, 5 * 60_000);
  afterAll(() => suite?.stop());

  it('answers every request through a run of deploys of a two-container stack; the volume stays', async () => {
    const volume = `    volumes: ["data:/data"]\n`;
    const res = await call(suite.t.url, 'POST', 'updateService', suite.owner, {
      serviceId,
      compose: `${compose('1.0.0', volume)}volumes:\n  data: {}\n`,
    });
    expect(res.status).toBe(200);
    expect((await deploy('1.0.0')).status).toBe('succeeded');
    const [web] = running('web');
    suite.engine.docker(['exec', web.split(' ')[0], 'sh', '-c', 'echo kept > /data/mark']);
    const config = suite.engine.docker(['exec', EDGE, 'cat', '/etc/slipway-edge/caddy.json']);
    const load = traffic(['shop.example.test', 'api.example.test']);
    // Twenty deploys, the versions alternating, one slow to become healthy.
    const tags = Array.from({ length: 20 }, (_, i) =>
      i === 1 ? 'slow' : ['1.0.0', '1.1.0'][i % 2],
    );
    const outcomes: string[] = [];
    for (const tag of tags) outcomes.push((await deploy(tag)).status);
    const { answers, failures } = await load.stop();
    expect(outcomes).toEqual(tags.map(() => 'succeeded'));
    expect(failures).toEqual([]);
    // Every switch rewrote slot files; none loaded a configuration.
    expect(suite.engine.docker(['exec', EDGE, 'cat', '/etc/slipway-edge/caddy.json'])).toBe(config);
    expect(Object.keys(answers).sort()).toEqual(['200 1.0.0', '200 1.1.0', '200 slow']);
    expect(Object.values(answers).reduce((a, b) => a + b, 0)).toBeGreaterThan(500);
    // One container each, the last version, the volume's file still there.
    expect(running('web')).toEqual([expect.stringMatching(/acme\/api:1\.1\.0$/)]);
    expect(running('worker')).toEqual([expect.stringMatching(/acme\/api:1\.1\.0$/)]);
    const current = running('web')[0].split(' ')[0];
    expect(suite.engine.docker(['exec', current, 'cat', '/data/mark']).trim()).toBe('kept');
  }, 900_000);

  it('keeps the old version serving every request when the new one fails its health check', async () => {
    const before = running('web');
    const load = traffic(['shop.example.test']);
    const failed = await deploy('exits');
    const { answers, failures } = await load.stop();
    expect([failed.status, failed.failedStep]).toEqual(['failed', 'health-new']);
    expect(failures).toEqual([]);
    expect(Object.keys(answers)).toEqual(['200 1.1.0']);
    expect(await viaEdge('shop.example.test', '/version')).toBe('200 1.1.0');
    // The new containers are gone; the old ones were never touched.
    expect(running('web')).toEqual(before);
    const all = suite.engine.docker([
      'ps',
      '--all',
      '--filter',
      `label=com.docker.compose.project=${PROJECT}`,
      '--format',
      '{{.Image}}',
    ]);
    expect(all).not.toContain('acme/api:exits');
    expect(await logsOf(failed.id)).toContain('remove-new: removed the new containers of web');
  }, 120_000);
});
