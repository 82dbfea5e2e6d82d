import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { data } from './support/deployments.js';
import { bearer, call, cookieAuth, createToken, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import {
  publishedCollections,
  publishedIndexes,
  readModelViolations,
} from '../projections/testing/read-model-schema.js';
import { loadConfig } from '../src/config/app-config.js';
import { DeploymentLogStore } from '../src/deployments/deployment-log-store.js';

const AT = '2026-11-23T12:00:00.000Z';

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

/**
 * contract/read-models.json against the running application: every collection the app
 * declares in its read store (projections and services alike, the leases of several replicas
 * included) is published, and nothing else is; the declared indexes are the published ones;
 * the documents the app writes while it is driven over HTTP fit their published shapes.
 */
describe('read store collections of the running application', () => {
  let t: TestApp;
  let file: string;
  let afterStart: { tables: string[]; indexes: string[] };

  beforeAll(async () => {
    const defaults = loadConfig({});
    t = await startTestApp({
      // Only the application's own collections (not the test-only notes projection), and as one
      // of several replicas, so that the leases collection exists too.
      notes: false,
      config: {
        storage: { ...defaults.storage, replicas: 2 },
        notifications: { ...defaults.notifications, tokenScanMinutes: 0 },
      },
    });
    file = join(t.config.dataDir, 'read-models.sqlite');
    afterStart = storedCollections(file);
  });
  afterAll(async () => {
    rmSync(t.config.dataDir, { recursive: true, force: true });
  });

  it('every collection in the read store after start is published, and every published one exists', () => {
    expect(afterStart.tables.sort()).toEqual(publishedCollections().sort());
  });

  it('the indexes in the read store are the published ones', () => {
    // The SQLite adapter names an index rm_<collection>__<field>__<field> (dots as _).
    const named = publishedIndexes().map(
      (i) => `rm_${i.collection}__${i.fields.join('__').replace(/\./g, '_')}`,
    );
    expect(afterStart.indexes.sort()).toEqual(named.sort());
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
        target: 'https://hooks.example.invalid/slipway',
        subscriptions: [],
      }),
    );
    data(
      await call(t.url, 'POST', 'testNotificationChannel', auth, {
        channelId: channel.channelId,
      }),
    );
    // Its attempt fails (the name does not resolve): a delivery with an error and a retry time.
    await waitFor(async () => {
      const { items } = data<{ items: { attempts: number }[] }>(
        await call(t.url, 'GET', 'notificationDeliveries', auth, {
          channelId: channel.channelId,
        }),
      );
      return items.find((d) => d.attempts > 0);
    }, 'the test delivery');
    expect((await call(t.url, 'POST', 'sealAuditCheckpoint', auth)).status).toBe(200);
    // Output lines through the store the runner appends with (no deployment runs here).
    await t.app.get(DeploymentLogStore).append([
      { deploymentId: 'd1', line: 1, step: 'pull', stream: 'stdout', text: 'ok', at: AT },
      { deploymentId: 'd1', line: 2, step: 'up', stream: 'stderr', text: 'warn', at: AT },
    ]);
    // Closing flushes the usage times and releases the leases.
    await t.app.close();

    const filled: string[] = [];
    const problems: string[] = [];
    for (const name of storedCollections(file).tables) {
      const docs = storedDocs(file, name);
      if (docs.length > 0) filled.push(name);
      problems.push(...readModelViolations(name, docs));
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
        'projection_checkpoints',
        'principals',
        'notification_channels',
      ]),
    );
  });
});
