import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { postgresClusterForSuite } from '../src/common/testing/postgres-cluster-suite.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { PostgresReadStore } from '../src/readstore/postgres/postgres-read-store.js';
import type { BulkWriter, Doc, ReadStore } from '../src/readstore/read-store.port.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import { projectInMemory } from './project-in-memory.js';
import { CHECKPOINT_COLLECTION, type Projection, type ProjectionCheckpoint } from './projection.js';
import { ProjectionRunner, type ProjectionRunnerOptions } from './projection-runner.js';
import { flakyProjection } from './testing/flaky-projection.js';
import { appendCounts, counterProjection } from './testing/counter-projection.js';

/** A read store with a bulk writer, made for one test in `dir` (a fresh one on each call). */
type OpenStore = (dir: string) => Promise<ReadStore & Required<Pick<ReadStore, 'bulkWriter'>>>;

const cluster = postgresClusterForSuite();
let opened = 0;
const stores: [string, OpenStore][] = [
  [
    'SQLite (a thread of its own)',
    async (dir) => new SqliteReadStore(join(dir, `read-${++opened}.sqlite`)),
  ],
  [
    'PostgreSQL (a few statements a batch)',
    async () => PostgresReadStore.connect(await cluster().createDatabase()),
  ],
];

/** Catching up through a store's bulk writer: what it builds, and when it answers. */
describe.each(stores)(
  'ProjectionRunner catching up through the bulk writer of %s',
  (_name, open) => {
    let dir: string;
    let events: SqliteEventStore;
    let store: ReadStore & Required<Pick<ReadStore, 'bulkWriter'>>;
    let bulkWriters: number;
    const runners: ProjectionRunner[] = [];
    const others: ReadStore[] = [];

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'slipway-bulk-run-'));
      events = new SqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
      store = await open(dir);
      bulkWriters = 0;
      const openWriter = store.bulkWriter.bind(store);
      store.bulkWriter = () => (bulkWriters++, openWriter());
    });
    afterEach(async () => {
      for (const r of runners.splice(0)) await r.stop();
      for (const other of others.splice(0)) await other.close();
      await events.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    // Batches of 5, 20 while behind: a few hundred events make dozens of submissions.
    const runner = (
      projections: Projection[],
      options: ProjectionRunnerOptions = {},
      on: ReadStore = store,
    ) => {
      const r = new ProjectionRunner(events, on, projections, {
        batchSize: 5,
        pollIntervalMs: 20,
        retryDelayMs: 10,
        ...options,
      });
      runners.push(r);
      return r;
    };
    const strip = (list: Doc[]) => list.map(({ _position: _p, ...rest }) => rest);
    const byId = (a: Doc, b: Doc) => (a.id < b.id ? -1 : 1);
    const counters = async (on: ReadStore = store) =>
      (await on.collection('counters').find({}, { limit: 1000 })).items.sort(byId);
    const folded = async () =>
      Object.values(projectInMemory(counterProjection(), await events.readAll(0n, 10_000)).counters)
        .map((d) => d as Doc)
        .sort(byId);

    const appendMany = (n: number) => appendCounts(events, n);

    /** A store of the same kind without a bulk writer: the plain path, one transaction per batch. */
    async function plainStore(): Promise<ReadStore> {
      const plain = await open(dir);
      others.push(plain);
      return {
        ensureCollection: (spec) => plain.ensureCollection(spec),
        collection: (name) => plain.collection(name),
        transaction: (work) => plain.transaction(work),
        isReady: () => plain.isReady(),
        close: () => plain.close(),
        ...(plain.catchingUp ? { catchingUp: (behind: boolean) => plain.catchingUp!(behind) } : {}),
      };
    }

    it('builds what the plain path and the pure fold build, documents changed across batches included', async () => {
      const last = await appendMany(150);
      const bulk = runner([counterProjection()]);
      await bulk.start();
      await bulk.waitFor(last);
      expect(bulkWriters).toBe(1);
      const built = await counters();

      const other = await plainStore();
      const plain = runner([counterProjection()], {}, other);
      await plain.start();
      await plain.waitFor(last);
      expect(await counters(other)).toEqual(built);
      await plain.stop();
      expect(strip(built)).toEqual(await folded());
    });

    it('answers waitFor only once the commit holding that position is in the store', async () => {
      const last = await appendMany(150);
      const r = runner([counterProjection()]);
      const seen: [number, number][] = [];
      const checkpoint = async () =>
        (await store.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION).get('counters'))
          ?.position ?? 0;
      const waits: Promise<void>[] = [];
      for (let p = 1; p <= Number(last); p += 13) {
        waits.push(r.waitFor(BigInt(p)).then(async () => void seen.push([p, await checkpoint()])));
      }
      await r.start();
      await Promise.all(waits);
      expect(seen.length).toBe(waits.length);
      for (const [position, committed] of seen) expect(committed).toBeGreaterThanOrEqual(position);
    });

    it('retries a projection that fails while catching up, and keeps the others going', async () => {
      const flaky = flakyProjection(2, 100n);
      const errors: string[] = [];
      const last = await appendMany(150);
      const r = runner([counterProjection(), flaky], { onError: (name) => errors.push(name) });
      await r.start();
      await r.waitFor(last);
      expect(errors).toEqual(['flaky', 'flaky']);
      const counted = (await events.readAll(0n, 10_000)).filter((e) => e.type === 'Counted');
      expect((await store.collection('flaky').get('only'))?.seen).toBe(counted.length);
      expect(strip(await counters())).toEqual(await folded());
    });

    it('goes on the plain way after a bulk write fails, applying nothing twice', async () => {
      const last = await appendMany(150);
      const open = store.bulkWriter.bind(store);
      store.bulkWriter = () => failingOnThird(open());
      const errors: unknown[] = [];
      const r = runner([counterProjection()], { onError: (_name, error) => errors.push(error) });
      await r.start();
      await r.waitFor(last);
      expect(errors.map((e) => (e as Error).message)).toEqual(['disk full']);
      // The counters add: an event applied twice or skipped would show here.
      expect(strip(await counters())).toEqual(await folded());
    });

    it('waits on stop for its last commit; a restart resumes without applying anything twice', async () => {
      await appendMany(150);
      const first = runner([counterProjection()]);
      await first.start();
      await first.waitFor(40n);
      await first.stop();
      const stopped = first.status()[0].position;
      const saved = await store
        .collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION)
        .get('counters');
      expect(saved?.position).toBe(stopped);
      const last = await appendMany(20);
      const second = runner([counterProjection()]);
      await second.start();
      await second.waitFor(last);
      expect(strip(await counters())).toEqual(await folded());
    });

    it('does not read the current document for a per-event handler', async () => {
      const perEvent: Projection = {
        name: 'log',
        version: 1,
        collections: [{ name: 'log' }],
        handlers: {
          '*': [
            {
              collection: 'log',
              documentId: (e) => `p${e.position}`,
              evolve: (current, e) => {
                if (current !== null) throw new Error('read before a per-event write');
                return { id: `p${e.position}`, type: e.type };
              },
              perEvent: true,
            },
          ],
        },
      };
      const last = await appendMany(30);
      const reads: string[] = [];
      const collection = store.collection.bind(store);
      store.collection = <T extends Doc = Doc>(name: string) => {
        const c = collection<T>(name);
        const get = c.get.bind(c);
        c.get = (id) => (reads.push(`${name}/${id}`), get(id));
        return c;
      };
      const r = runner([perEvent], { onError: (_n, e) => reads.push(String(e)) });
      await r.start();
      await r.waitFor(last);
      expect(reads.filter((read) => read.startsWith('log/'))).toEqual([]);
      expect(await store.collection('log').count()).toBe(Number(last));
    });
  },
);

/** A bulk writer whose third submission fails, as a full disk would; later ones are refused. */
function failingOnThird(writer: BulkWriter): BulkWriter {
  let submissions = 0;
  let failed = false;
  return {
    submit: (changes) => {
      if (++submissions === 3) failed = true;
      if (failed) return Promise.reject(new Error(submissions === 3 ? 'disk full' : 'refused'));
      return writer.submit(changes);
    },
    close: () => writer.close(),
  };
}
