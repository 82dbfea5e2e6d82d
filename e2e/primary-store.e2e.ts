import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { publishedCollections } from '../projections/testing/read-model-schema.js';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { PRIMARY_STORE, type ReadStore } from '../src/readstore/read-store.port.js';
import { RunnerLiveness } from '../src/runner/runner-liveness.js';
import {
  fillBusyStore,
  loopbackConfig,
  startReceiver,
  type BusyStore,
} from './support/busy-store.js';
import { data } from './support/deployments.js';
import { call, cookieAuth, logIn } from './support/identity.js';
import { startSshd, type TestSshd } from './support/sshd.js';
import { postgresClusterForSuite } from '../src/common/testing/postgres-cluster-suite.js';
import type { AppConfig } from '../src/config/app-config.js';
import {
  deleteStoreFile,
  dropPostgresReadModels,
  snapshotPostgres,
  snapshotStore,
  type StoreSnapshot,
} from './support/store-files.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Where the stores are, and how an operator reads and drops them there. */
interface StoreBackend {
  /** The configuration the service starts with (the data directory added for the second). */
  config(): Promise<Partial<AppConfig>>;
  snapshot(dataDir: string): Promise<{ readModels: StoreSnapshot; primary: StoreSnapshot }>;
  dropReadModels(dataDir: string): Promise<void>;
}

const cluster = postgresClusterForSuite();
let postgresUrl = '';

const BACKENDS: [string, StoreBackend][] = [
  [
    'the SQLite files (deleting read-models.sqlite)',
    {
      config: async () => loopbackConfig(),
      snapshot: async (dir) => ({
        readModels: snapshotStore(join(dir, 'read-models.sqlite')),
        primary: snapshotStore(join(dir, 'primary.sqlite')),
      }),
      dropReadModels: async (dir) => deleteStoreFile(join(dir, 'read-models.sqlite')),
    },
  ],
  [
    'PostgreSQL (dropping the rm_ tables)',
    {
      config: async () => {
        postgresUrl = await cluster().createDatabase();
        return {
          ...loopbackConfig(),
          storage: { postgresUrl, eventStoreUrl: null, mongoUrl: null, replicas: 1 },
        };
      },
      snapshot: async () => ({
        readModels: await snapshotPostgres(postgresUrl, 'rm_'),
        primary: await snapshotPostgres(postgresUrl, 'pd_'),
      }),
      dropReadModels: () => dropPostgresReadModels(postgresUrl),
    },
  ],
];

/**
 * Read models are disposable: on a busy store (deployments with output, a used token and
 * session, runner heartbeats, delivered notifications, a sealed audit checkpoint), dropping the
 * read models and starting again rebuilds every projection to the same documents, and nothing
 * that no event records is lost, for it lives in the primary store.
 */
describe.each(BACKENDS)(
  'dropping every projection of a busy store on %s and rebuilding it',
  (_name, backend) => {
    let sshd: TestSshd;
    let receiver: { server: Server; url: string };
    let t: TestApp;
    let busy: BusyStore;
    let before: { readModels: StoreSnapshot; primary: StoreSnapshot };
    let after: { readModels: StoreSnapshot; primary: StoreSnapshot };
    let dataDir: string;

    beforeAll(async () => {
      sshd = await startSshd();
      receiver = await startReceiver();
      const config = await backend.config();
      const first = await startTestApp({ notes: false, config });
      dataDir = first.config.dataDir;
      busy = await fillBusyStore(first, sshd, receiver.url, 3);
      // A runner alive in another process (a worker): its heartbeat must outlive the rebuild, or
      // a restarted runner would take the deployments it runs for abandoned.
      const elsewhere = new RunnerLiveness(
        first.app.get<ReadStore>(PRIMARY_STORE),
        'worker-2',
        3_600_000,
      );
      await elsewhere.start();
      await elsewhere.claiming('a-deployment-it-runs');
      // Closing flushes the usage times.
      await first.app.close();
      before = await backend.snapshot(dataDir);

      await backend.dropReadModels(dataDir);
      t = await startTestApp({ notes: false, config: { ...config, dataDir } });
      const head = await t.app.get<EventStore>(EVENT_STORE).headPosition();
      await t.app.get(ProjectionRunner).waitFor(head);
      after = await backend.snapshot(dataDir);
    });
    afterAll(async () => {
      await t?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      await sshd?.stop();
      receiver?.server.close();
    });

    it('held every kind of data before the drop', () => {
      const filled = (s: StoreSnapshot) => Object.keys(s).filter((name) => s[name].length > 0);
      expect(filled(before.primary).sort()).toEqual(
        [
          'audit_chain',
          'deployment_logs',
          'notification_deliveries',
          'notification_outbox',
          'reaction_checkpoints',
          'runner_heartbeats',
          'session_activity',
          'store_moves',
          'subject_keys',
          'token_usage',
        ].sort(),
      );
      expect(before.primary.notification_deliveries).toHaveLength(3);
      expect(new Set(before.primary.deployment_logs.map((l) => l.deploymentId))).toEqual(
        new Set(busy.deployments),
      );
      expect(before.primary.token_usage.map((u) => u.id)).toEqual([busy.tokenId]);
      expect(filled(before.readModels)).toEqual(
        expect.arrayContaining(['deployments', 'principals', 'api_tokens', 'audit_trail']),
      );
      // Only projections and their checkpoints (leases: with several replicas only), nothing the
      // rebuild could not bring back.
      expect(Object.keys(before.readModels).sort()).toEqual(
        publishedCollections('read-models')
          .filter((name) => name !== 'projection_leases')
          .sort(),
      );
    });

    it('rebuilds every read model to the same documents', () => {
      expect(Object.keys(after.readModels)).toEqual(Object.keys(before.readModels));
      for (const name of Object.keys(before.readModels)) {
        expect({ name, docs: after.readModels[name] }).toEqual({
          name,
          docs: before.readModels[name].map((doc) =>
            // A checkpoint says when it was written; its version and position are the same.
            name === 'projection_checkpoints' ? { ...doc, updatedAt: expect.any(String) } : doc,
          ),
        });
      }
    });

    it('keeps the primary data as it was', () => {
      expect(after.primary).toEqual(before.primary);
    });

    it('serves the output, deliveries, token use and audit trail as before', async () => {
      const owner = cookieAuth(await logIn(t.url, busy.email));
      for (const deploymentId of busy.deployments) {
        const logs = data<{ lines: { line: number; text: string }[] }>(
          await call(t.url, 'GET', 'deploymentLogs', owner, { deploymentId, limit: 1000 }),
        );
        const stored = before.primary.deployment_logs.filter(
          (l) => l.deploymentId === deploymentId,
        );
        expect(logs.lines.map((l) => l.text)).toEqual(stored.map((l) => l.text));
        expect(logs.lines.length).toBeGreaterThan(0);
      }
      const deliveries = data<{ items: { status: string }[] }>(
        await call(t.url, 'GET', 'notificationDeliveries', owner, { channelId: busy.channelId }),
      );
      expect(deliveries.items.map((d) => d.status)).toEqual([
        'delivered',
        'delivered',
        'delivered',
      ]);
      const tokens = data<{ items: { tokenId: string; lastUsedAt: string | null }[] }>(
        await call(t.url, 'GET', 'tokens', owner, {}),
      );
      expect(tokens.items.find((k) => k.tokenId === busy.tokenId)?.lastUsedAt).toBe(
        before.primary.token_usage[0].lastUsedAt,
      );
      const verified = data<{ ok: boolean; message: string }>(
        await call(t.url, 'GET', 'verifyAuditTrail', owner),
      );
      expect(verified).toMatchObject({ ok: true });
    });
  },
);
