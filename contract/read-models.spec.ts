import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { applicationProjections } from '../projections/index.js';
import { CHECKPOINT_COLLECTION } from '../projections/projection.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import {
  publishedCollections,
  readModelViolations,
  serviceCollections,
} from '../projections/testing/read-model-schema.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import { SERVICE_COLLECTIONS } from './service-collections.js';

const legacyStore = fileURLToPath(
  new URL('../e2e/fixtures/legacy-store-9ccf61e/events.sqlite', import.meta.url),
);

/**
 * contract/read-models.json against what the runner really writes: every application projection
 * rebuilt from a seeded store (the legacy fixture: sign-up, tokens, a server, a service,
 * deployments, the audit trail), every stored document validated against its collection.
 * The projection specs' Given/Then helper validates the documents of every fixture as well.
 */
describe('contract/read-models.json', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-read-models-'));
    copyFileSync(legacyStore, join(dir, 'events.sqlite'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'));
    reads = new SqliteReadStore(join(dir, 'read-models.sqlite'));
    const runner = new ProjectionRunner(events, reads, applicationProjections, {
      pollIntervalMs: 20,
    });
    await runner.start();
    await runner.waitFor(await events.headPosition());
    await runner.stop();
  });
  afterAll(async () => {
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function all(collection: string): Promise<Doc[]> {
    const docs: Doc[] = [];
    let cursor: string | undefined;
    do {
      const page = await reads.collection(collection).find({}, { limit: 1000, cursor });
      docs.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return docs;
  }

  it('publishes every collection of every projection, and those services write', () => {
    const owned = applicationProjections.flatMap((p) => p.collections.map((c) => c.name));
    const services = SERVICE_COLLECTIONS.map((c) => c.spec.name);
    expect(services).toContain(CHECKPOINT_COLLECTION);
    expect(publishedCollections().sort()).toEqual([...owned, ...services].sort());
    expect(serviceCollections().sort()).toEqual([...services].sort());
  });

  it('every document of a rebuild over a seeded store fits its collection', async () => {
    const filled: string[] = [];
    // A rebuild writes the projections' collections and their checkpoints (the services'
    // collections are checked against the running application in e2e/read-models.e2e.ts).
    const services = new Set(serviceCollections());
    const rebuilt = publishedCollections().filter(
      (name) => !services.has(name) || name === CHECKPOINT_COLLECTION,
    );
    for (const name of rebuilt) {
      const docs = await all(name);
      if (docs.length > 0) filled.push(name);
      expect(readModelViolations(name, docs)).toEqual([]);
    }
    // The fixture reaches most collections; the rest are covered by the Given/Then fixtures.
    expect(filled).toEqual(
      expect.arrayContaining(['principals', 'services', 'deployments', 'audit_trail']),
    );
  });

  it('a document that breaks the shape is reported with its path', () => {
    const problems = readModelViolations('services', [{ id: 's1', name: 3, _position: 0 }]);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('services/s1/name'),
        expect.stringContaining('services/s1/_position'),
      ]),
    );
  });
});
