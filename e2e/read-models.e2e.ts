import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { COMPOSE, data } from './support/deployments.js';
import { bearer, call, cookieAuth, createToken, signUp } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  waitForDeployment,
  type TestSshd,
} from './support/sshd.js';
import { RUNNER_HEARTBEATS } from '../src/runner/runner-liveness.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import {
  publishedCollections,
  publishedIndexes,
  readModelViolations,
} from '../projections/testing/read-model-schema.js';
import { loadConfig } from '../src/config/app-config.js';

/** The read store's tables (`rm_<collection>`) and their declared indexes, from the file. */
function storedCollections(file: string): { tables: string[]; indexes: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    const names = (type: string) =>
      db
        .prepare<[string], { name: string }>(
          `SELECT name FROM sqlite_master WHERE type = ? AND name LIKE 'rm\\_%' ESCAPE '\\'`,
        )
        .all(type)
        .map((r) => r.name);
    return {
      tables: names('table').map((n) => n.slice('rm_'.length)),
      indexes: names('index'),
    };
  } finally {
    db.close();
  }
}

function storedDocs(file: string, collection: string): object[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[], { doc: string }>(`SELECT doc FROM rm_${collection}`)
      .all()
      .map((r) => JSON.parse(r.doc) as object);
  } finally {
    db.close();
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A webhook receiver on loopback that answers 204. */
async function startReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook` };
}

/**
 * contract/read-models.json against the running application: every collection the app
 * declares in its read store (projections and their bookkeeping, the leases of several replicas
 * included) and in its primary store (what services write that no event records) is published
 * under that store, and nothing else is; the declared indexes are the published ones;
 * the documents the app writes while it is driven over HTTP (a deployment run by the runner
 * over a real sshd, a delivered webhook, an audit seal...) fit their published shapes.
 */
describe('read store collections of the running application', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let receiver: { server: Server; url: string };
  let files: Record<'read-models' | 'primary', string>;
  let afterStart: Record<'read-models' | 'primary', { tables: string[]; indexes: string[] }>;
  let closed = false;

  beforeAll(async () => {
    sshd = await startSshd();
    receiver = await startReceiver();
    const defaults = loadConfig({});
    t = await startTestApp({
      // Only the application's own collections (not the test-only notes projection), and as one
      // of several replicas, so that the leases collection exists too.
      notes: false,
      config: {
        serverAddressPolicy: ALLOW_LOOPBACK,
        storage: { ...defaults.storage, replicas: 2 },
        notifications: {
          ...defaults.notifications,
          tokenScanMinutes: 0,
          addressPolicy: ALLOW_LOOPBACK,
        },
      },
    });
    files = {
      'read-models': join(t.config.dataDir, 'read-models.sqlite'),
      primary: join(t.config.dataDir, 'primary.sqlite'),
    };
    afterStart = {
      'read-models': storedCollections(files['read-models']),
      primary: storedCollections(files.primary),
    };
  });
  afterAll(async () => {
    if (!closed) await t?.app.close();
    if (t) rmSync(t.config.dataDir, { recursive: true, force: true });
    await sshd?.stop();
    receiver?.server.close();
  });

  it('every collection in each store after start is published there, and every published one exists', () => {
    expect(afterStart['read-models'].tables.sort()).toEqual(
      publishedCollections('read-models').sort(),
    );
    // The primary collections are declared before anything starts (moved from the read store
    // of an earlier release), the runner's heartbeats among them.
    expect(afterStart.primary.tables.sort()).toEqual(publishedCollections('primary').sort());
    expect(publishedCollections('primary')).toContain(RUNNER_HEARTBEATS);
  });

  it('the indexes in each store are the published ones', () => {
    // The SQLite adapter names an index rm_<collection>__<field>__<field> (dots as _).
    for (const store of ['read-models', 'primary'] as const) {
      const named = publishedIndexes(store).map(
        (i) => `rm_${i.collection}__${i.fields.join('__').replace(/\./g, '_')}`,
      );
      expect(afterStart[store].indexes.sort()).toEqual(named.sort());
    }
  });

  it('the documents the application writes fit their published shapes', async () => {
    const owner = await signUp(t.url, 'owner@example.com');
    const auth = cookieAuth(owner.cookie);
    const { token } = await createToken(t.url, owner.cookie, ['deploy:read'], 7);
    expect((await call(t.url, 'GET', 'deliveryMetrics', bearer(token), {})).status).toBe(200);
    const channel = data<{ channelId: string }>(
      await call(t.url, 'POST', 'createNotificationChannel', auth, {
        name: 'analysts',
        kind: 'webhook',
        target: receiver.url,
        subscriptions: ['deployment.succeeded'],
      }),
    );
    // A deployment run by the runner over a real sshd: its output lines, and a delivery.
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
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', auth, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.0.1',
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
    expect(done.status).toBe('succeeded');
    await waitFor(async () => {
      const { items } = data<{ items: { status: string }[] }>(
        await call(t.url, 'GET', 'notificationDeliveries', auth, {
          channelId: channel.channelId,
        }),
      );
      return items.find((d) => d.status === 'delivered');
    }, 'the delivered notification');
    expect((await call(t.url, 'POST', 'sealAuditCheckpoint', auth)).status).toBe(200);
    // Closing flushes the usage times and releases the leases.
    closed = true;
    await t.app.close();

    const filled: string[] = [];
    const problems: string[] = [];
    for (const store of ['read-models', 'primary'] as const) {
      const tables = storedCollections(files[store]).tables;
      expect(tables.sort()).toEqual(publishedCollections(store).sort());
      for (const name of tables) {
        const docs = storedDocs(files[store], name);
        if (docs.length > 0) filled.push(name);
        problems.push(...readModelViolations(name, docs));
      }
    }
    expect(problems).toEqual([]);
    expect(filled).toEqual(
      expect.arrayContaining([
        'audit_chain',
        'deployment_logs',
        'notification_deliveries',
        'notification_outbox',
        'projection_leases',
        'session_activity',
        'token_usage',
        'store_moves',
        'projection_checkpoints',
        'principals',
        'notification_channels',
        'deployments',
      ]),
    );
  });
});
