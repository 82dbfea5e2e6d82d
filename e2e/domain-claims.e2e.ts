import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const COMPOSE = 'services:\n  web:\n    image: ghcr.io/acme/shop:1.0.0\n';
const route = (domain: string) => ({ domain, service: 'web', port: 80, tls: 'off' });

/**
 * A domain belongs to one service fleet-wide, and stays claimed exactly as long as the service's
 * recorded routes name it: concurrent route changes of one service leave claimed only the
 * domains of the routes that were recorded last, whatever order they land in.
 */
describe('domain claims under concurrent route changes', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let owner: Record<string, string>;
  let serverId: string;

  const register = (name: string, routes: unknown[]) =>
    call(t.url, 'POST', 'registerService', owner, {
      name,
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/shop',
      compose: COMPOSE,
      routes,
    });
  const routesOf = async (serviceId: string) =>
    data<{ routes: { domain: string }[] }>(
      await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }),
    ).routes.map((r) => r.domain);

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    serverId = await registerLoopbackServer(t.url, owner, sshd);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  it('releases every domain the last recorded routes do not name', async () => {
    const { serviceId } = data<{ serviceId: string }>(
      await register('shop', [route('shop-0.example.test')]),
    );
    // Rounds of two updates at once, each naming a domain of its own.
    for (let round = 1; round <= 5; round++) {
      const domains = [`a${round}.example.test`, `b${round}.example.test`];
      const answers = await Promise.all(
        domains.map((d) =>
          call(t.url, 'POST', 'updateService', owner, { serviceId, routes: [route(d)] }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const kept = await routesOf(serviceId);
      expect(kept).toHaveLength(1);
      // The domain the service lost is free for another service; the one it kept is not.
      const lost = domains.find((d) => d !== kept[0]);
      const other = await register(`other-${round}`, [route(lost!)]);
      expect(other.status).toBe(200);
      const taken = await register(`copycat-${round}`, [route(kept[0])]);
      expect([taken.status, taken.body.error.code]).toEqual([409, 'CONFLICT']);
    }
    // And the first domain, dropped in round 1, is free too.
    expect((await register('first', [route('shop-0.example.test')])).status).toBe(200);
  });
});
