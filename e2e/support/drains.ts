import { COMPOSE, data } from './deployments.js';
import { call, cookieAuth, signUp } from './identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
} from './sshd.js';
import { startTestApp, type TestApp } from './test-app.js';

/** What the drain suites share: an app whose drains may reach loopback, a runner, a service. */
export interface DrainTestApp {
  t: TestApp;
  sshd: TestSshd;
  owner: Record<string, string>;
  ownerCookie: string;
  serviceId: string;
  close(): Promise<void>;
}

/**
 * A test app with the notification address policy open to loopback (where the receivers
 * listen), drains looking every 50 ms and retrying after 100 ms, a runner deploying over a real
 * sshd, its owner, and one service to deploy.
 */
export async function startDrainTestApp(): Promise<DrainTestApp> {
  const sshd = await startSshd();
  const defaults = (await import('../../src/config/app-config.js')).loadConfig({});
  const t = await startTestApp({
    notes: false,
    config: {
      serverAddressPolicy: ALLOW_LOOPBACK,
      notifications: {
        ...defaults.notifications,
        tokenScanMinutes: 0,
        addressPolicy: ALLOW_LOOPBACK,
      },
      drains: { intervalMs: 50, timeoutMs: 3_000, retryBaseMs: 100 },
    },
  });
  await startRunnerFor(t, sshd);
  const ownerCookie = (await signUp(t.url, 'owner@example.com')).cookie;
  const owner = cookieAuth(ownerCookie);
  const serverId = await registerLoopbackServer(t.url, owner, sshd);
  const { serviceId } = data<{ serviceId: string }>(
    await call(t.url, 'POST', 'registerService', owner, {
      name: 'api',
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
    }),
  );
  return {
    t,
    sshd,
    owner,
    ownerCookie,
    serviceId,
    close: async () => {
      await t.close();
      await sshd.stop();
    },
  };
}
