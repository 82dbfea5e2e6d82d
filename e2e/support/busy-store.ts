import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { COMPOSE, data } from './deployments.js';
import { bearer, call, cookieAuth, createToken, signUp } from './identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  waitForDeployment,
  type TestSshd,
} from './sshd.js';
import type { TestApp } from './test-app.js';

/** A webhook receiver on loopback that answers 204. */
export async function startReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook` };
}

/** A test app's settings that let it reach the loopback sshd and webhook receiver. */
export function loopbackConfig(): Partial<AppConfig> {
  const defaults = loadConfig({});
  return {
    serverAddressPolicy: ALLOW_LOOPBACK,
    notifications: {
      ...defaults.notifications,
      tokenScanMinutes: 0,
      addressPolicy: ALLOW_LOOPBACK,
    },
  };
}

export interface BusyStore {
  email: string;
  tokenId: string;
  channelId: string;
  serviceId: string;
  deployments: string[];
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Drives a test app (started with loopbackConfig()) over HTTP until every kind of data it keeps
 * is there: deployments run by the runner over the test sshd (their output lines, the runner's
 * heartbeat), a token and a session that were used, a webhook channel with a delivered
 * notification per deployment, and a sealed audit checkpoint. Close the app afterwards to flush
 * the usage times.
 */
export async function fillBusyStore(
  t: TestApp,
  sshd: TestSshd,
  receiverUrl: string,
  deployments = 2,
): Promise<BusyStore> {
  const email = 'owner@example.com';
  const owner = await signUp(t.url, email);
  const auth = cookieAuth(owner.cookie);
  const { token, tokenId } = await createToken(t.url, owner.cookie, ['deploy:read'], 7);
  expect200(await call(t.url, 'GET', 'deliveryMetrics', bearer(token), {}));
  const { channelId } = data<{ channelId: string }>(
    await call(t.url, 'POST', 'createNotificationChannel', auth, {
      name: 'ops',
      kind: 'webhook',
      target: receiverUrl,
      subscriptions: ['deployment.succeeded'],
    }),
  );
  await startRunnerFor(t, sshd);
  const serverId = await registerLoopbackServer(t.url, auth, sshd);
  const { serviceId } = data<{ serviceId: string }>(
    await call(t.url, 'POST', 'registerService', auth, {
      name: 'api',
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
      approvalRule: 'none',
    }),
  );
  const ids: string[] = [];
  for (let i = 1; i <= deployments; i++) {
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', auth, {
        serviceId,
        imageTag: `ghcr.io/acme/api:1.0.${i}`,
      }),
    );
    const done = await waitForDeployment(
      t,
      auth,
      deploymentId,
      ['succeeded', 'failed'],
      20_000,
      25,
    );
    if (done.status !== 'succeeded') throw new Error(`deployment ${deploymentId} ${done.status}`);
    ids.push(deploymentId);
  }
  await until(async () => {
    const { items } = data<{ items: { status: string }[] }>(
      await call(t.url, 'GET', 'notificationDeliveries', auth, { channelId }),
    );
    const delivered = items.filter((d) => d.status === 'delivered').length;
    return delivered >= deployments ? delivered : undefined;
  }, 'a delivered notification per deployment');
  expect200(await call(t.url, 'POST', 'sealAuditCheckpoint', auth));
  return { email, tokenId, channelId, serviceId, deployments: ids };
}

function expect200(res: { status: number; body: unknown }): void {
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(res.body)}`);
}
