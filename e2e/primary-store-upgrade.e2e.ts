import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { applicationProjections } from '../projections/index.js';
import { PRIMARY_COLLECTIONS } from '../src/app/primary-collections.js';
import { PRIMARY_DATA_MOVE } from '../src/app/move-primary-data.js';
import { data } from './support/deployments.js';
import { call, cookieAuth, logIn } from './support/identity.js';
import { snapshotStore, type StoreSnapshot } from './support/store-files.js';
import { startTestApp, type TestApp } from './support/test-app.js';

// Made once by e2e/fixtures/make-primary-data-store.ts with the code of commit 492c7e1: two
// deployments with output, a used token, delivered webhooks, a sealed checkpoint and a live
// worker's heartbeat, all of it in read-models.sqlite (no primary.sqlite yet).
const fixtureDir = fileURLToPath(new URL('./fixtures/primary-data-492c7e1', import.meta.url));
const fixture = JSON.parse(readFileSync(join(fixtureDir, 'fixture.json'), 'utf8')) as {
  email: string;
  tokenId: string;
  channelId: string;
  deployments: string[];
};
const MOVED = PRIMARY_COLLECTIONS.map((c) => c.name).sort();
/** Projections the release of the fixture did not have. */
const NEWER_PROJECTIONS = [
  'server-edges',
  'edge-certificates',
  'identity_providers',
  'projects',
  'drains',
  'scheduled_jobs',
  'backup_schedules',
  'backup_copies',
  's3_targets',
  'alerts',
];

describe('a data directory laid out by a release without the primary store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-upgrade-'));
  const readModelsFile = join(dataDir, 'read-models.sqlite');
  const primaryFile = join(dataDir, 'primary.sqlite');
  let old: StoreSnapshot;
  let moved: StoreSnapshot;
  let left: StoreSnapshot;
  let t: TestApp;
  const start = () => startTestApp({ notes: false, config: { dataDir } });

  beforeAll(async () => {
    cpSync(fixtureDir, dataDir, { recursive: true });
    old = snapshotStore(readModelsFile);
    expect(existsSync(primaryFile)).toBe(false);
    t = await start();
    moved = snapshotStore(primaryFile);
    left = snapshotStore(readModelsFile);
  });
  afterAll(async () => {
    await t?.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('held every primary collection in its read store', () => {
    const filled = MOVED.filter((name) => (old[name] ?? []).length > 0);
    expect(filled).toEqual(MOVED);
  });

  it('moves every document of them into primary.sqlite at the first start, as it was', () => {
    for (const name of MOVED)
      expect({ name, docs: moved[name] }).toEqual({ name, docs: old[name] });
    expect(moved.store_moves).toEqual([
      {
        id: PRIMARY_DATA_MOVE,
        movedAt: expect.any(String),
        documents: Object.fromEntries(MOVED.map((name) => [name, old[name].length])),
      },
    ]);
  });

  it('leaves them empty in read-models.sqlite, and the projections as they were', () => {
    for (const name of MOVED) expect({ name, docs: left[name] }).toEqual({ name, docs: [] });
    // A projection whose version changed since the fixture was rebuilt from the events: the same
    // documents (by id), in their new shape, and a new checkpoint.
    const versionIn = (snapshot: StoreSnapshot, id: string) =>
      snapshot.projection_checkpoints?.find((d) => d.id === id)?.version;
    const rebuilt = applicationProjections.filter(
      (p) => versionIn(old, p.name) !== undefined && versionIn(old, p.name) !== p.version,
    );
    const rebuiltCollections = rebuilt.flatMap((p) => p.collections.map((c) => c.name));
    const renewed = [...NEWER_PROJECTIONS, ...rebuilt.map((p) => p.name)];
    for (const name of Object.keys(old).filter((n) => !MOVED.includes(n))) {
      // A projection newer than the fixture catches up beside the others: its checkpoint is new.
      const docs = (left[name] ?? []).filter(
        (d) => name !== 'projection_checkpoints' || !renewed.includes(String(d.id)),
      );
      const before = (old[name] ?? []).filter(
        (d) => name !== 'projection_checkpoints' || !renewed.includes(String(d.id)),
      );
      if (rebuiltCollections.includes(name)) {
        const ids = (rows: { id?: unknown }[]) => rows.map((d) => String(d.id)).sort();
        expect({ name, ids: ids(docs) }).toEqual({ name, ids: ids(before) });
      } else {
        expect({ name, docs }).toEqual({ name, docs: before });
      }
    }
  });

  it('serves the moved output, deliveries and token use, and the audit trail verifies', async () => {
    const owner = cookieAuth(await logIn(t.url, fixture.email));
    for (const deploymentId of fixture.deployments) {
      const logs = data<{ lines: { text: string }[] }>(
        await call(t.url, 'GET', 'deploymentLogs', owner, { deploymentId, limit: 1000 }),
      );
      const stored = old.deployment_logs.filter((l) => l.deploymentId === deploymentId);
      expect(logs.lines.length).toBeGreaterThan(0);
      expect(logs.lines.map((l) => l.text)).toEqual(stored.map((l) => l.text));
    }
    const deliveries = data<{ items: { status: string }[] }>(
      await call(t.url, 'GET', 'notificationDeliveries', owner, { channelId: fixture.channelId }),
    );
    expect(deliveries.items.map((d) => d.status)).toEqual(['delivered', 'delivered']);
    const tokens = data<{ items: { tokenId: string; lastUsedAt: string | null }[] }>(
      await call(t.url, 'GET', 'tokens', owner, {}),
    );
    expect(tokens.items.find((k) => k.tokenId === fixture.tokenId)?.lastUsedAt).toBe(
      old.token_usage[0].lastUsedAt,
    );
    const verified = data<{ ok: boolean }>(await call(t.url, 'GET', 'verifyAuditTrail', owner));
    expect(verified).toMatchObject({ ok: true });
  });

  it('moves nothing again at the next start', async () => {
    await t.app.close();
    const before = snapshotStore(primaryFile);
    t = await start();
    const after = snapshotStore(primaryFile);
    expect(after.store_moves).toEqual(before.store_moves);
    for (const name of ['deployment_logs', 'audit_chain', 'notification_deliveries']) {
      expect({ name, docs: after[name] }).toEqual({ name, docs: before[name] });
    }
  });
});
