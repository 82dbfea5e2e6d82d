import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { applicationProjections } from '../../../projections/index.js';
import { CHECKPOINT_COLLECTION } from '../../../projections/projection.js';
import { SqliteReadStore } from './sqlite-read-store.js';

// Read models written by the code of commit e28efb0 (tables WITHOUT ROWID), from the events of
// e2e/fixtures/legacy-store-9ccf61e: see its fixture.json.
const FIXTURE = fileURLToPath(
  new URL('../../../e2e/fixtures/read-models-e28efb0/read-models.sqlite', import.meta.url),
);

type Rows = Record<string, { id: string; doc: string }[]>;

function tables(db: Database.Database): { name: string; sql: string }[] {
  return db
    .prepare<[], { name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' ORDER BY name`,
    )
    .all();
}

function rowsOf(file: string): Rows {
  const db = new Database(file, { readonly: true });
  const rows: Rows = {};
  for (const { name } of tables(db)) {
    rows[name] = db
      .prepare<[], { id: string; doc: string }>(`SELECT id, doc FROM ${name} ORDER BY id`)
      .all();
  }
  db.close();
  return rows;
}

describe('the read store table layout', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-layout-'));
    file = join(dir, 'read-models.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('moves a store written by e28efb0 to rowid tables with every document unchanged', async () => {
    copyFileSync(FIXTURE, file);
    const before = rowsOf(file);
    expect(before.rm_audit_trail.length).toBe(12);
    expect(before.rm_deployments.length).toBeGreaterThan(0);
    const store = new SqliteReadStore(file);
    await store.ensureCollection({ name: CHECKPOINT_COLLECTION });
    for (const projection of applicationProjections) {
      for (const spec of projection.collections) await store.ensureCollection(spec);
    }
    // A second process declaring the same collections finds the work done.
    const other = new SqliteReadStore(file);
    await other.ensureCollection(applicationProjections[0].collections[0]);
    await other.close();
    const entry = await store.collection('audit_trail').get('p3');
    expect(entry).toEqual(JSON.parse(before.rm_audit_trail.find((r) => r.id === 'p3')!.doc));
    const page = await store
      .collection('audit_trail')
      .find({ outcome: 'succeeded' }, { sort: { position: -1 }, limit: 2 });
    expect(page.items.map((d) => d.position)).toEqual([12, 11]);
    await store.close();

    // Every table of the old store holds what it held; collections newer than the fixture start
    // empty.
    const after = rowsOf(file);
    const added = Object.keys(after).filter((table) => !(table in before));
    expect(added.map((table) => [table, after[table]])).toEqual(added.map((t) => [t, []]));
    expect(Object.fromEntries(Object.keys(before).map((t) => [t, after[t]]))).toEqual(before);
    const db = new Database(file, { readonly: true });
    for (const { name, sql } of tables(db)) {
      expect([name, /WITHOUT\s+ROWID/i.test(sql)]).toEqual([name, false]);
    }
    const indexes = db
      .prepare<[], { name: string; sql: string }>(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_audit_trail' AND sql IS NOT NULL`,
      )
      .all();
    expect(indexes).toHaveLength(8);
    for (const index of indexes) expect(index.sql).toMatch(/, id\)$/);
    db.close();
  });

  it('orders a sorted page by its index alone, the id included', async () => {
    const store = new SqliteReadStore(file);
    await store.ensureCollection({ name: 'things', indexes: [{ fields: ['team', 'size'] }] });
    await store.collection('things').put({ id: 'a', team: 'x', size: 1 });
    await store.close();
    const db = new Database(file, { readonly: true });
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT doc FROM rm_things WHERE json_extract(doc, '$.team') = ?
         ORDER BY json_extract(doc, '$.size'), id LIMIT 5`,
      )
      .all('x') as { detail: string }[];
    const details = plan.map((p) => p.detail).join(' | ');
    expect(details).toContain('rm_things__team__size');
    expect(details).not.toContain('TEMP B-TREE');
    db.close();
  });

  it('waits out another process holding the write lock past the busy timeout', async () => {
    copyFileSync(FIXTURE, file);
    const before = rowsOf(file);
    // In WAL mode, as every store the server opened is: readers go on beside the lock.
    const wal = new Database(file);
    wal.pragma('journal_mode = WAL');
    wal.close();
    // Another connection, on another thread, holds the write lock for 10.5 s (the store's busy
    // timeout is 10 s), as a process copying a large table at the same time would.
    const holder = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const db = new (require(workerData.driver))(workerData.file);
       db.exec('BEGIN IMMEDIATE');
       parentPort.postMessage('holding');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_500);
       db.exec('COMMIT');
       db.close();`,
      {
        eval: true,
        workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
      },
    );
    await new Promise((resolve) => holder.once('message', resolve));
    const store = new SqliteReadStore(file);
    await store.ensureCollection(
      applicationProjections.find((p) => p.name === 'audit_trail')!.collections[0],
    );
    await store.close();
    await holder.terminate();
    expect(rowsOf(file).rm_audit_trail).toEqual(before.rm_audit_trail);
    const db = new Database(file, { readonly: true });
    const { sql } = db
      .prepare(`SELECT sql FROM sqlite_master WHERE name = 'rm_audit_trail'`)
      .get() as { sql: string };
    db.close();
    expect(sql).not.toMatch(/WITHOUT\s+ROWID/i);
  }, 30_000);
});
