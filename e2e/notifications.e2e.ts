import { createHmac } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMPOSE, data } from './support/deployments.js';
import { call, cookieAuth, createToken, memberWithRole, signUp } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  waitForDeployment,
  type TestSshd,
} from './support/sshd.js';
import { startSmtp, type TestSmtp } from './support/smtp.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { systemResolver } from '../src/deployments/reach/address-gate.js';
import { NotificationTargetPolicy } from '../src/notifications/target-policy.js';
import { TokenExpiryScan } from '../src/notifications/token-expiry-scan.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP server on loopback that keeps what it receives; `hang` never answers. */
async function startReceiver(mode: 'ok' | 'hang'): Promise<{
  server: Server;
  url: string;
  received: Received[];
}> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (mode === 'ok') res.writeHead(204).end();
      // 'hang': no answer; the client's timeout ends it.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, received };
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string) {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const SUBJECTS = [
  'deployment.succeeded',
  'deployment.failed',
  'deployment.cancelled',
  'approval.requested',
  'approval.decided',
  'backup.failed',
  'audit.verification-failed',
  'token.expiring',
  'certificate.failed',
  'certificate.expiring',
];

interface Delivery {
  deliveryId: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  testId: string | null;
}

describe('notification channels deliver signed messages from the event log', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let slow: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: TestSmtp;
  let channel: { channelId: string; secret: string };
  let slowChannel: { channelId: string };
  let serviceId: string;
  let gatedServiceId: string;
  let serverId: string;

  /** The receiver's messages of a subject, each checked for a valid signature. */
  const signedOf = (subject: string) =>
    receiver.received
      .filter((r) => r.headers['x-slipway-event'] === subject)
      .map((r) => {
        const ts = String(r.headers['x-slipway-timestamp']);
        const expected = createHmac('sha256', channel.secret)
          .update(`${ts}.${r.body}`)
          .digest('hex');
        expect(r.headers['x-slipway-signature']).toBe(`sha256=${expected}`);
        return JSON.parse(r.body) as {
          subject: string;
          event: { type: string; position: number };
          data: Record<string, unknown>;
          deployment: Record<string, unknown> | null;
        };
      });
  const received = (subject: string, match: (m: ReturnType<typeof signedOf>[number]) => boolean) =>
    waitFor(() => signedOf(subject).find(match), `a ${subject} delivery`);

  const deploy = async (tag: string, auth = owner, svc = serviceId) =>
    data<{ deploymentId?: string; approvalId?: string; status: string }>(
      await call(t.url, 'POST', 'triggerDeploy', auth, { serviceId: svc, imageTag: tag }),
    );
  const finished = (id: string) =>
    waitForDeployment<{ status: string }>(
      t,
      owner,
      id,
      ['succeeded', 'failed', 'cancelled'],
      20_000,
      25,
    );
  const deliveries = async (channelId: string) =>
    data<{ items: Delivery[] }>(
      await call(t.url, 'GET', 'notificationDeliveries', owner, { channelId, limit: 100 }),
    ).items;

  beforeAll(async () => {
    sshd = await startSshd();
    receiver = await startReceiver('ok');
    slow = await startReceiver('hang');
    smtp = await startSmtp();
    const defaults = (await import('../src/config/app-config.js')).loadConfig({});
    t = await startTestApp({
      notes: false,
      config: {
        serverAddressPolicy: ALLOW_LOOPBACK,
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        notifications: {
          ...defaults.notifications,
          tokenScanMinutes: 0,
          addressPolicy: ALLOW_LOOPBACK,
          timeoutMs: 300,
          retryBaseMs: 50,
          maxAttempts: 3,
        },
      },
    });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
    serverId = await registerLoopbackServer(t.url, owner, sshd);
    const register = async (name: string, approvalRule: string) =>
      data<{ serviceId: string }>(
        await call(t.url, 'POST', 'registerService', owner, {
          name,
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
          approvalRule,
        }),
      ).serviceId;
    serviceId = await register('api', 'none');
    gatedServiceId = await register('gated', 'all-but-admins');
    channel = data(
      await call(t.url, 'POST', 'createNotificationChannel', owner, {
        name: 'ops webhook',
        kind: 'webhook',
        target: receiver.url,
        subscriptions: SUBJECTS,
      }),
    );
    slowChannel = data(
      await call(t.url, 'POST', 'createNotificationChannel', owner, {
        name: 'slow',
        kind: 'slack',
        target: slow.url,
        subscriptions: ['deployment.succeeded'],
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    receiver?.server.close();
    slow?.server.closeAllConnections();
    slow?.server.close();
    await smtp.stop();
  });

  it('shows the secret once, and reads show the target masked', async () => {
    expect(channel.secret).toMatch(/^whsec_/);
    const list = data<{ items: { channelId: string; target: string }[] }>(
      await call(t.url, 'GET', 'notificationChannels', owner),
    );
    expect(list.items.find((c) => c.channelId === channel.channelId)!.target).toBe(
      `http://${new URL(receiver.url).host}/…`,
    );
    expect(JSON.stringify(list)).not.toContain(channel.secret);
  });

  it('deployment succeeded: delivered signed, while a channel that times out neither slows nor fails the deployment; its delivery shows the retries', async () => {
    sshd.setMode('success');
    const { deploymentId } = await deploy('ghcr.io/acme/api:1.0.0');
    expect((await finished(deploymentId!)).status).toBe('succeeded');
    const message = await received(
      'deployment.succeeded',
      (m) => m.data.deploymentId === deploymentId,
    );
    expect(message.deployment).toMatchObject({
      serviceName: 'api',
      imageRef: 'ghcr.io/acme/api:1.0.0',
    });
    const failed = await waitFor(async () => {
      const d = (await deliveries(slowChannel.channelId)).find((x) => x.status === 'failed');
      return d;
    }, 'the slow channel to give up');
    expect(failed.attempts).toBe(3);
    expect(failed.lastError).toMatch(/timed out/);
    // Each attempt reached the slow receiver.
    expect(slow.received.length).toBeGreaterThanOrEqual(3);
    // A Slack-compatible channel posts one line of text.
    expect(JSON.parse(slow.received[0].body)).toEqual({
      text: '[Slipway] Deployment succeeded: api (production) ghcr.io/acme/api:1.0.0',
    });
    const ok = (await deliveries(channel.channelId)).find(
      (d) => d.subject === 'deployment.succeeded',
    )!;
    expect([ok.status, ok.attempts]).toEqual(['delivered', 1]);
  });

  it('deployment failed and cancelled are delivered', async () => {
    sshd.setMode('pull-fail');
    const { deploymentId: failing } = await deploy('ghcr.io/acme/api:1.0.1');
    expect((await finished(failing!)).status).toBe('failed');
    await received('deployment.failed', (m) => m.data.deploymentId === failing);
    sshd.setMode('slow');
    const { deploymentId: running } = await deploy('ghcr.io/acme/api:1.0.2');
    const { deploymentId: queued } = await deploy('ghcr.io/acme/api:1.0.3');
    data(await call(t.url, 'POST', 'cancelDeployment', owner, { deploymentId: queued }));
    data(await call(t.url, 'POST', 'cancelDeployment', owner, { deploymentId: running }));
    await received('deployment.cancelled', (m) => m.data.deploymentId === queued);
    await finished(running!);
    sshd.setMode('success');
  });

  it('approval requested and decided are delivered', async () => {
    const pending = await deploy('ghcr.io/acme/api:2.0.0', operator, gatedServiceId);
    expect(pending.status).toBe('pending_approval');
    await received('approval.requested', (m) => m.data.approvalId === pending.approvalId);
    data(await call(t.url, 'POST', 'rejectRequest', owner, { approvalId: pending.approvalId }));
    await received('approval.decided', (m) => m.data.approvalId === pending.approvalId);
  });

  it('a failed backup and a failed restore (checksum mismatch) are each delivered signed', async () => {
    const admin = await memberWithRole(t.url, owner, 'admin@example.com', 'admin');
    const register = async (name: string, backupCommand: string) =>
      data<{ serviceId: string }>(
        await call(t.url, 'POST', 'registerService', owner, {
          name,
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: COMPOSE,
          backupCommand,
          restoreCommand: 'cat > /dev/null',
        }),
      ).serviceId;
    const broken = await register('broken-db', 'echo no space left >&2; exit 3');
    const failedBackup = await call(t.url, 'POST', 'triggerBackup', owner, { serviceId: broken });
    expect(failedBackup.status).toBe(409);
    const backupMessage = await received(
      'backup.failed',
      (m) => m.data.serviceId === broken && m.event.type === 'BackupFailed',
    );
    expect(backupMessage.data).toMatchObject({ reason: 'command-failed' });

    const db = await register('db', 'docker exec db pg_dump app');
    const taken = data<{ backupId: string; location: string }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId: db }),
    );
    const { approvalId } = data<{ approvalId: string }>(
      await call(t.url, 'POST', 'requestApproval', admin, {
        action: 'restore',
        serviceId: db,
        backupId: taken.backupId,
        reason: 'restore after a bad migration',
      }),
    );
    data(await call(t.url, 'POST', 'approveRequest', owner, { approvalId }));
    appendFileSync(taken.location, 'tampered');
    const refused = await call(t.url, 'POST', 'restoreBackup', owner, {
      backupId: taken.backupId,
      approvalId,
    });
    expect(refused.status).toBe(409);
    const restoreMessage = await received(
      'backup.failed',
      (m) => m.data.backupId === taken.backupId && m.event.type === 'RestoreFailed',
    );
    expect(restoreMessage.data).toMatchObject({ reason: 'checksum-mismatch', serviceId: db });
  });

  it('a token expiring within 7 days is noticed once by the scan and delivered once', async () => {
    const cookie = owner.Cookie;
    const minted = await createToken(t.url, cookie, ['deploy:read'], 3);
    const scan = t.app.get(TokenExpiryScan);
    expect(await scan.scan()).toBeGreaterThanOrEqual(1);
    expect(await scan.scan()).toBe(0);
    const message = await received('token.expiring', (m) => m.data.tokenId === minted.tokenId);
    expect(message.data.tokenName).toBe('t-deploy:read');
  });

  it('testNotificationChannel sends a test message; email goes over a real SMTP conversation', async () => {
    const test = data<{ testId: string }>(
      await call(t.url, 'POST', 'testNotificationChannel', owner, { channelId: channel.channelId }),
    );
    await received('test', (m) => m.data.testId === test.testId);
    const mail = data<{ channelId: string; secret: string | null }>(
      await call(t.url, 'POST', 'createNotificationChannel', owner, {
        name: 'ops mail',
        kind: 'email',
        target: 'ops@example.com',
        subscriptions: ['deployment.succeeded'],
      }),
    );
    expect(mail.secret).toBeNull();
    const { deploymentId } = await deploy('ghcr.io/acme/api:3.0.0');
    expect((await finished(deploymentId!)).status).toBe('succeeded');
    const got = await waitFor(
      () => smtp.inbox.find((m) => m.subject.includes('ghcr.io/acme/api:3.0.0')),
      'the mail',
    );
    expect(got.to).toEqual(['ops@example.com']);
    expect(got.subject).toBe(
      '[Slipway] Deployment succeeded: api (production) ghcr.io/acme/api:3.0.0',
    );
  });

  it('refuses channel management to operators, viewers, narrower tokens and anonymous callers', async () => {
    const input = { name: 'x', kind: 'webhook', target: receiver.url, subscriptions: [] };
    const anon = await call(t.url, 'POST', 'createNotificationChannel', {}, input);
    expect([anon.status, anon.body.error.code]).toEqual([401, 'AUTH_REQUIRED']);
    const asOperator = await call(t.url, 'POST', 'createNotificationChannel', operator, input);
    expect([asOperator.status, asOperator.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const reads = await call(t.url, 'GET', 'notificationDeliveries', operator, {});
    expect(reads.status).toBe(403);
    const narrow = await createToken(t.url, owner.Cookie, ['notifications:read']);
    const res = await call(
      t.url,
      'POST',
      'createNotificationChannel',
      { Authorization: `Bearer ${narrow.token}` },
      input,
    );
    expect(res.status).toBe(403);
    expect(res.body.error.data.requiredScopes).toEqual(['notifications:manage']);
    const bad = await call(t.url, 'POST', 'createNotificationChannel', owner, {
      ...input,
      target: 'file:///etc/passwd',
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    const nul = await call(t.url, 'POST', 'updateNotificationChannel', owner, {
      channelId: channel.channelId,
      subscriptions: null,
    });
    expect(nul.status).toBe(400);
  });
});

describe('the notification address policy refuses loopback and private targets by default', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: Record<string, string>;

  beforeAll(async () => {
    receiver = await startReceiver('ok');
    const defaults = (await import('../src/config/app-config.js')).loadConfig({});
    t = await startTestApp({
      notes: false,
      config: {
        notifications: {
          ...defaults.notifications,
          tokenScanMinutes: 0,
          retryBaseMs: 50,
          maxAttempts: 1,
        },
      },
    });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
  });
  afterAll(async () => {
    await t?.close();
    receiver?.server.close();
  });

  it.each([
    ['loopback', () => receiver.url, /loopback address/],
    ['private', () => 'http://10.1.2.3:8080/hook', /private address/],
    ['metadata', () => 'http://169.254.169.254/latest', /metadata address/],
  ])(
    '%s: refused when the channel is created or its target changed, naming the field',
    async (_name, target, message) => {
      const input = { name: 'internal', kind: 'webhook', target: target(), subscriptions: [] };
      const created = await call(t.url, 'POST', 'createNotificationChannel', owner, input);
      expect([created.status, created.body.error.code]).toEqual([400, 'BAD_REQUEST']);
      expect(created.body.error.message).toMatch(message);
      expect(created.body.error.message).toMatch(/SLIPWAY_NOTIFICATION_ADDRESS_POLICY/);
      expect(created.body.error.data.issues).toEqual([
        expect.objectContaining({ path: 'target', message: expect.stringMatching(message) }),
      ]);
      const ok = data<{ channelId: string }>(
        await call(t.url, 'POST', 'createNotificationChannel', owner, {
          ...input,
          target: 'https://hooks.example.invalid/slipway',
        }),
      );
      const updated = await call(t.url, 'POST', 'updateNotificationChannel', owner, {
        channelId: ok.channelId,
        target: target(),
      });
      expect([updated.status, updated.body.error.code]).toEqual([400, 'BAD_REQUEST']);
      expect(updated.body.error.message).toMatch(message);
      expect(receiver.received).toEqual([]);
    },
  );

  it('and at delivery: a name that resolved to a public address when set, and to loopback now, is refused', async () => {
    const policy = t.app.get(NotificationTargetPolicy);
    const port = new URL(receiver.url).port;
    try {
      policy.resolver = () => Promise.resolve(['93.184.216.34']);
      const created = data<{ channelId: string }>(
        await call(t.url, 'POST', 'createNotificationChannel', owner, {
          name: 'rebinding',
          kind: 'webhook',
          target: `http://hooks.rebind.test:${port}/hook`,
          subscriptions: [],
        }),
      );
      policy.resolver = () => Promise.resolve(['127.0.0.1']);
      data(
        await call(t.url, 'POST', 'testNotificationChannel', owner, {
          channelId: created.channelId,
        }),
      );
      const failed = await waitFor(async () => {
        const items = data<{ items: Delivery[] }>(
          await call(t.url, 'GET', 'notificationDeliveries', owner, {
            channelId: created.channelId,
          }),
        ).items;
        return items.find((d) => d.status === 'failed');
      }, 'the refusal');
      expect(failed.lastError).toMatch(/resolves to a loopback address/);
      expect(failed.lastError).toMatch(/SLIPWAY_NOTIFICATION_ADDRESS_POLICY/);
      expect(receiver.received).toEqual([]);
    } finally {
      policy.resolver = systemResolver;
    }
  });
});
