import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMPOSE, FINGERPRINT, PRIVATE_KEY, data } from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const server = (name: string, host: string) => ({
  name,
  host,
  sshUser: 'deploy',
  privateKey: PRIVATE_KEY,
  hostKeyFingerprint: FINGERPRINT,
});

describe('the server address policy refuses internal targets by default', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['localhost', 'loopback'],
    ['0177.0.0.1', 'loopback'],
  ])('refuses to register %s (%s) with 400 and the host named', async (host, rule) => {
    const res = await call(t.url, 'POST', 'registerServer', operator, server('probe', host));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.data.issues).toEqual([
      { path: 'host', message: expect.stringMatching(new RegExp(`an? ${rule} address`)) },
    ]);
  });

  it('still registers servers on private and public addresses', async () => {
    data(await call(t.url, 'POST', 'registerServer', operator, server('private', '10.20.0.5')));
    data(await call(t.url, 'POST', 'registerServer', operator, server('public', '203.0.113.7')));
  });

  it('refuses a health-check URL that points at the metadata service or loopback', async () => {
    const { serverId } = data<{ serverId: string }>(
      await call(t.url, 'POST', 'registerServer', operator, server('web', '10.20.0.6')),
    );
    for (const healthCheckUrl of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://[::ffff:169.254.169.254]/',
      'http://localhost:6379/',
    ]) {
      const res = await call(t.url, 'POST', 'registerService', operator, {
        name: 'web',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
        healthCheckUrl,
      });
      expect([res.status, res.body.error?.data.issues[0].path]).toEqual([400, 'healthCheckUrl']);
    }
    const { serviceId } = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', operator, {
        name: 'web',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
        healthCheckUrl: 'http://10.20.0.6:8080/healthz',
      }),
    );
    const update = await call(t.url, 'POST', 'updateService', operator, {
      serviceId,
      healthCheckUrl: 'http://169.254.169.254/latest/meta-data/',
    });
    expect([update.status, update.body.error?.data.issues[0].path]).toEqual([
      400,
      'healthCheckUrl',
    ]);
  });
});

describe('the server address policy can be widened by configuration', () => {
  let t: TestApp;
  let owner: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: 'allow:loopback' } });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('registers loopback when allowed, while the metadata address stays refused', async () => {
    data(await call(t.url, 'POST', 'registerServer', owner, server('local', '127.0.0.1')));
    data(await call(t.url, 'POST', 'registerServer', owner, server('local6', '[::1]')));
    const res = await call(t.url, 'POST', 'registerServer', owner, server('md', '169.254.169.254'));
    expect(res.status).toBe(400);
  });
});
