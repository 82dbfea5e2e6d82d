import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { fileStoreHarness } from '../../common/testing/store-harness.js';
import { describeReadStoreContract } from '../testing/read-store.contract-suite.js';
import { SqliteReadStore } from './sqlite-read-store.js';

describeReadStoreContract('sqlite', async () =>
  fileStoreHarness('read.sqlite', (file) => new SqliteReadStore(file)),
);

describe('SqliteReadStore specifics', () => {
  it('uses the declared expression index for a filtered, sorted query', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slipway-rs-'));
    const file = join(dir, 'read.sqlite');
    const store = new SqliteReadStore(file);
    await store.ensureCollection({ name: 'things', indexes: [{ fields: ['team', 'size'] }] });
    await store.collection('things').put({ id: 'a', team: 'x', size: 1 });
    const db = new Database(file, { readonly: true });
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT doc FROM rm_things WHERE json_extract(doc, '$.team') = ?
         ORDER BY json_extract(doc, '$.team') ASC, json_extract(doc, '$.size') ASC`,
      )
      .all('x') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('rm_things__team__size');
    db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells its listeners of a commit another connection made to the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slipway-rs-'));
    const file = join(dir, 'read.sqlite');
    const reader = new SqliteReadStore(file);
    const writer = new SqliteReadStore(file);
    await writer.ensureCollection({ name: 'things' });
    await reader.ensureCollection({ name: 'things' });
    const heard = new Promise<void>((resolve) => {
      const stop = reader.onChanged(() => {
        stop();
        resolve();
      });
    });
    await writer.transaction(async (s) => s.collection('things').put({ id: 'a', n: 1 }));
    await heard;
    expect(await reader.collection('things').get('a')).toEqual({ id: 'a', n: 1 });
    await writer.close();
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
