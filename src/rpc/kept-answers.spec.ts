import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { RequestContext } from '../kernel/request-context.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import { KeptAnswers } from './kept-answers.js';

interface Thing {
  [key: string]: unknown;
  id: string;
}

describe('answers kept until the read models change', () => {
  let dir: string;
  let store: SqliteReadStore;
  let calls: unknown[];
  let listThings: (input: unknown, ctx: RequestContext) => Promise<unknown>;
  const ctx = {} as RequestContext;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-kept-answers-'));
    store = new SqliteReadStore(join(dir, 'read.sqlite'));
    await store.ensureCollection({ name: 'things' });
    await store.collection<Thing>('things').put({ id: 'a' });
    calls = [];
    listThings = new KeptAnswers(store).around('listThings', async (input) => {
      calls.push(input);
      if ((input as { fail?: boolean }).fail) throw new Error('refused');
      return store.collection<Thing>('things').find({}, { sort: { id: 1 } });
    });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shares one answer between calls with the same input, until a commit', async () => {
    const first = await listThings({ limit: 20 }, ctx);
    expect(await listThings({ limit: 20 }, ctx)).toBe(first);
    expect(calls).toHaveLength(1);
    // Another input is another answer.
    await listThings({ limit: 5 }, ctx);
    expect(calls).toHaveLength(2);
    await store.collection<Thing>('things').put({ id: 'b' });
    expect(await listThings({ limit: 20 }, ctx)).toEqual({
      items: [{ id: 'a' }, { id: 'b' }],
      nextCursor: null,
    });
    expect(calls).toHaveLength(3);
  });

  it('freezes what it shares, so no caller changes it for the next', async () => {
    const answer = (await listThings({}, ctx)) as { items: Thing[] };
    expect(() => answer.items.push({ id: 'z' })).toThrow(/not extensible/);
    expect(() => (answer.items[0].id = 'z')).toThrow(/read only/);
  });

  it('keeps no refusal: each call is refused afresh', async () => {
    await expect(listThings({ fail: true }, ctx)).rejects.toThrow('refused');
    await expect(listThings({ fail: true }, ctx)).rejects.toThrow('refused');
    expect(calls).toHaveLength(2);
  });
});
