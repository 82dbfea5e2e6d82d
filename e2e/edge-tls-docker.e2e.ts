import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EdgeCertificates } from '../src/runner/edge/edge-certificates.js';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import { startEdgeSuite, type EdgeSuite } from './support/edge.js';
import { edgeRequest, until } from './support/edge-request.js';
import { call } from './support/identity.js';
import type { TestPebble } from './support/pebble.js';
import { startEdgeAcme } from './support/edge-acme.js';
import { ALLOW_LOOPBACK, deployAndWait } from './support/sshd.js';
import type { TestApp } from './support/test-app.js';
import { DAY, TestClock } from './support/test-clock.js';
import { systemContext } from '../src/kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../src/readstore/read-store.port.js';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { serverEdgeStream } from '../src/events/edge.events.js';
import type { EdgeCertificateDoc } from '../projections/edge-certificates.projection.js';

const PROJECT = 'tls-production';
const SHOP = 'shop.example.test';
/** Resolves (in Pebble's DNS) where nothing listens: the challenge cannot be answered. */
const BROKEN = 'broken.example.test';

interface Certificate {
  domain: string;
  status: string;
  issuer: string | null;
  notBefore: string | null;
  notAfter: string | null;
  lastError: string | null;
}
interface Message {
  subject: string;
  data: Record<string, unknown>;
}

/**
 * Automatic TLS through the edge proxy: Debian's Caddy (in a scratch image on the real Docker
 * engine, run by Slipway over a real sshd) obtains certificates from Debian's Pebble, an ACME CA,
 * which validates the challenges against the proxy's published ports and resolves names with
 * pebble-challtestsrv. Nothing between them is faked.
 */
describe('the edge proxy obtains certificates over ACME and serves HTTPS', () => {
  let engine: DockerEngine;
  let suite: EdgeSuite;
  let pebble: TestPebble;
  let t: TestApp;
  let owner: Record<string, string>;
  let serverId: string;
  let serviceId: string;
  let httpPort: number;
  let tlsPort: number;
  let receiver: Server;
  const messages: Message[] = [];
  const clock = new TestClock();

  /** One request through the proxy: status, headers and body, or why there was none. */
  const viaEdge = (scheme: 'http' | 'https', host: string, path: string, ca?: string) =>
    edgeRequest({ scheme, port: scheme === 'https' ? tlsPort : httpPort, host, path, ca });
  const certificates = async () =>
    data<{ certificates: Certificate[] }>(
      await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }),
    ).certificates;
  const deploy = (tag: string) =>
    deployAndWait<{ status: string }>(t, owner, serviceId, `${engine.registry}/acme/api:${tag}`);
  const observe = () => t.app.get(EdgeCertificates).observe(serverId, systemContext('test'));

  beforeAll(async () => {
    engine = dockerEngine();
    engine.removeProject(PROJECT);
    const edgeAcme = await startEdgeAcme(engine);
    ({ pebble, httpPort, tlsPort } = edgeAcme);
    await pebble.resolve(BROKEN, '127.0.0.2');
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        messages.push(JSON.parse(body) as Message);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const defaults = (await import('../src/config/app-config.js')).loadConfig({});
    suite = await startEdgeSuite({
      project: PROJECT,
      publish: edgeAcme.publish,
      app: {
        clock,
        config: {
          serverAddressPolicy: ALLOW_LOOPBACK,
          notifications: {
            ...defaults.notifications,
            addressPolicy: ALLOW_LOOPBACK,
            retryBaseMs: 50,
          },
        },
      },
      edge: { acme: edgeAcme.acme, certExpiryWarnDays: 14 },
    });
    ({ t, owner, serverId } = suite);
    await call(t.url, 'POST', 'createNotificationChannel', owner, {
      name: 'certificates',
      kind: 'webhook',
      target: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      subscriptions: ['certificate.failed', 'certificate.expiring'],
    });
    const image = `${engine.registry}/acme/api:1.0.0`;
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'tls',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: `services:\n  web:\n    image: ${image}\n`,
        routes: [
          { domain: SHOP, service: 'web', port: 80, hsts: true },
          { domain: BROKEN, service: 'web', port: 80 },
        ],
      }),
    ).serviceId;
    expect((await deploy('1.0.0')).status).toBe('succeeded');
  }, 5 * 60_000);
  afterAll(async () => {
    await suite?.stop();
    await pebble?.stop();
    receiver?.close();
  });

  it('serves the domain on HTTPS with a certificate from the ACME CA, HSTS as asked', async () => {
    const root = await pebble.issuingRoot();
    const answer = await until(async () => {
      const a = await viaEdge('https', SHOP, '/version', root);
      return a.status === 200 ? a : undefined;
    }, 'an HTTPS answer with a certificate Pebble issued');
    expect(answer.body).toBe('1.0.0');
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    // HTTP is redirected there, path and query kept.
    const plain = await viaEdge('http', SHOP, '/version?x=1');
    expect([plain.status, plain.headers.location]).toEqual([308, `https://${SHOP}/version?x=1`]);
    // Its state is read back into the read model: issuer, validity.
    await until(async () => {
      await observe();
      const c = (await certificates()).find((x) => x.domain === SHOP);
      return c?.status === 'issued' ? c : undefined;
    }, 'the certificate in the read model');
    const shop = (await certificates()).find((c) => c.domain === SHOP)!;
    expect(shop.issuer).toMatch(/Pebble/);
    expect(Date.parse(shop.notAfter!)).toBeGreaterThan(Date.now());
    // What analysts read: the certificate the proxy served.
    const doc = await t.app
      .get<ReadStore>(READ_STORE)
      .collection<EdgeCertificateDoc>('edge_certificates')
      .get(`${serverId}:${SHOP}`);
    expect(doc?.fingerprint).toBe(answer.peer);
  });

  it('records a domain that does not answer the challenge as failing, and notifies it once', async () => {
    const broken = await until(async () => {
      await observe();
      const c = (await certificates()).find((x) => x.domain === BROKEN);
      return c?.status === 'failing' ? c : undefined;
    }, 'the failure in the read model');
    expect(broken.lastError).toMatch(/connection|refused|127\.0\.0\.2/i);
    expect(broken.notAfter).toBeNull();
    const notice = await until(
      async () => messages.find((m) => m.subject === 'certificate.failed'),
      'a certificate.failed notification',
      20_000,
    );
    expect(notice.data).toMatchObject({ domain: BROKEN, serverId });
    // Looking again while the proxy retries records no second failure: a retry that fails for
    // another reason (another challenge type) is recorded as still failing, never notified.
    await observe();
    const failures = (
      await t.app.get<EventStore>(EVENT_STORE).readStream(serverEdgeStream(serverId))
    )
      .filter((e) => e.type === 'EdgeCertificateFailed')
      .map((e) => (e.data as { domain: string }).domain);
    expect(failures).toEqual([BROKEN]);
    expect(messages.filter((m) => m.subject === 'certificate.failed')).toHaveLength(1);
  });

  it('notifies a certificate near its expiry once', async () => {
    const shop = (await certificates()).find((c) => c.domain === SHOP)!;
    const shift = Date.parse(shop.notAfter!) - Date.now() - 5 * DAY;
    clock.advance(shift);
    try {
      expect(await observe()).toBe(1);
      const notice = await until(
        async () => messages.find((m) => m.subject === 'certificate.expiring'),
        'a certificate.expiring notification',
        20_000,
      );
      expect(notice.data).toMatchObject({ domain: SHOP, daysLeft: 4, notAfter: shop.notAfter });
      await until(
        async () => ((await observe()) === 0 ? true : undefined),
        'no second notice',
        5000,
      );
    } finally {
      clock.advance(-shift);
    }
  });
});
