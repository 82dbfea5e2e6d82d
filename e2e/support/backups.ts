import { ALL_SCOPES } from '../../src/kernel/scopes.js';
import { COMPOSE, data } from './deployments.js';
import { bearer, call, createToken, signUp } from './identity.js';
import { ALLOW_LOOPBACK, registerLoopbackServer, startSshd, type TestSshd } from './sshd.js';
import { startTestApp, type TestApp } from './test-app.js';
import type { TestClock } from './test-clock.js';

/** What the backup suites share: an app on a moving clock, its owner's token, a service. */
export interface BackupTestApp {
  t: TestApp;
  sshd: TestSshd;
  /** A token, not a session: the clock moves hours, past a session's idle limit. */
  token: string;
  owner: Record<string, string>;
  serverId: string;
  serviceId: string;
  close(): Promise<void>;
}

/**
 * A test app on `clock` whose servers (and, when `loopbackTargets`, notification and drain
 * targets) may be loopback, with service `db@production` on a real sshd whose backup command
 * prints a few bytes (and `extraBytes` zero bytes after them).
 */
export async function startBackupTestApp(
  clock: TestClock,
  options: { extraBytes?: number; loopbackTargets?: boolean } = {},
): Promise<BackupTestApp> {
  const sshd = await startSshd();
  const defaults = (await import('../../src/config/app-config.js')).loadConfig({});
  const t = await startTestApp({
    notes: false,
    clock,
    config: {
      serverAddressPolicy: ALLOW_LOOPBACK,
      ...(options.loopbackTargets
        ? {
            notifications: {
              ...defaults.notifications,
              tokenScanMinutes: 0,
              addressPolicy: ALLOW_LOOPBACK,
            },
          }
        : {}),
    },
  });
  const { cookie } = await signUp(t.url, 'owner@example.com');
  const token = (await createToken(t.url, cookie, [...ALL_SCOPES], 30)).token;
  const owner = bearer(token);
  const serverId = await registerLoopbackServer(t.url, owner, sshd);
  const zeros = options.extraBytes ? `; head -c ${options.extraBytes} /dev/zero` : '';
  const { serviceId } = data<{ serviceId: string }>(
    await call(t.url, 'POST', 'registerService', owner, {
      name: 'db',
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
      backupCommand: `echo "dump taken at $(date +%s%N)"${zeros}`,
    }),
  );
  return {
    t,
    sshd,
    token,
    owner,
    serverId,
    serviceId,
    close: async () => {
      await t.close();
      await sshd.stop();
    },
  };
}
