import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { postgresClusterForSuite } from '../../common/testing/postgres-cluster-suite.js';
import type { BulkWriter } from '../read-store.port.js';
import { PostgresReadStore } from './postgres-read-store.js';

const cluster = postgresClusterForSuite();

describe('PostgresReadStore bulk writer (a few statements a transaction)', () => {
  let store: PostgresReadStore;
  let writer: BulkWriter | null;

  beforeEach(async () => {
    store = await PostgresReadStore.connect(await cluster().createDatabase());
    await store.ensureCollection({ name: 'things', indexes: [{ fields: ['size'] }] });
    await store.ensureCollection({ name: 'others' });
    writer = store.bulkWriter();
  });
  afterEach(async () => {
    await writer?.close();
    await store.close();
  });

  const things = () => store.collection('things');

  it('commits submissions in order, and the store reads each once it resolves', async () => {
    await writer!.submit([
      { collection: 'things', put: { id: 'a', size: 1 } },
      { collection: 'things', put: { id: 'b', size: 2 } },
      { collection: 'others', put: { id: 'o', note: 'x' } },
    ]);
    expect(await things().get('b')).toEqual({ id: 'b', size: 2 });
    expect(await store.collection('others').get('o')).toEqual({ id: 'o', note: 'x' });
    // Not awaited in between: the later submission still commits after the earlier one.
    const replaced = writer!.submit([{ collection: 'things', put: { id: 'a', size: 10 } }]);
    const deleted = writer!.submit([
      { collection: 'things', put: { id: 'a', size: 20 } },
      { collection: 'things', delete: 'b' },
    ]);
    await Promise.all([replaced, deleted]);
    expect(await things().get('a')).toEqual({ id: 'a', size: 20 });
    expect(await things().get('b')).toBeNull();
    // Its index serves queries like the store's own writes.
    expect((await things().find({ size: { $gte: 5 } })).items.map((d) => d.id)).toEqual(['a']);
  });

  it('leaves what changes one after another would, for a document changed several times', async () => {
    await things().put({ id: 'gone', size: 1 });
    await things().put({ id: 'back', size: 1, _position: 50 });
    await writer!.submit([
      // Put, then deleted: gone.
      { collection: 'things', put: { id: 'brief', size: 1 } },
      { collection: 'things', delete: 'brief' },
      { collection: 'things', delete: 'gone' },
      // Deleted, then written again at a lower position: the delete went first, so it stands.
      { collection: 'things', delete: 'back' },
      { collection: 'things', put: { id: 'back', size: 2, _position: 7 } },
      // Written three times: the last stands.
      { collection: 'things', put: { id: 'thrice', size: 1 } },
      { collection: 'things', put: { id: 'thrice', size: 2 } },
      { collection: 'things', put: { id: 'thrice', size: 3 } },
    ]);
    expect(await things().get('brief')).toBeNull();
    expect(await things().get('gone')).toBeNull();
    expect(await things().get('back')).toEqual({ id: 'back', size: 2, _position: 7 });
    expect(await things().get('thrice')).toEqual({ id: 'thrice', size: 3 });
  });

  it('keeps the rule that a projection’s document replaces only an older one', async () => {
    await things().put({ id: 'p', size: 1, _position: 10 });
    await things().put({ id: 'q', size: 1, _position: 10 });
    await writer!.submit([
      { collection: 'things', put: { id: 'p', size: 2, _position: 9 } },
      { collection: 'things', put: { id: 'q', size: 2, _position: 11 } },
      { collection: 'things', put: { id: 'plain', size: 2 } },
    ]);
    expect(await things().get('p')).toEqual({ id: 'p', size: 1, _position: 10 });
    expect(await things().get('q')).toEqual({ id: 'q', size: 2, _position: 11 });
    // A document without a position replaces whatever is there.
    await writer!.submit([{ collection: 'things', put: { id: 'q', size: 3 } }]);
    expect(await things().get('q')).toEqual({ id: 'q', size: 3 });
  });

  it('stores U+0000 as U+FFFD, as the store’s own writes do', async () => {
    await writer!.submit([{ collection: 'things', put: { id: 'l', text: 'a\u0000b' } }]);
    expect(await things().get('l')).toEqual({ id: 'l', text: 'a\ufffdb' });
  });

  it('waits on close for what was submitted, and refuses submissions after it', async () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({
      collection: 'things',
      put: { id: `t${i}`, size: i },
    }));
    const submitted = [writer!.submit(many.slice(0, 1000)), writer!.submit(many.slice(1000))];
    await writer!.close();
    await expect(Promise.all(submitted)).resolves.toBeDefined();
    expect(await things().count()).toBe(2_000);
    await expect(writer!.submit([])).rejects.toThrow(/closed/);
    writer = null;
  });

  it('refuses a bad id, an undeclared collection, and everything after either, writing none of it', async () => {
    await expect(
      writer!.submit([
        { collection: 'things', put: { id: 'first', size: 1 } },
        { collection: 'things', put: { id: 'x'.repeat(513), size: 1 } },
      ]),
    ).rejects.toThrow(/document id must be 1-512 characters/);
    await expect(writer!.submit([{ collection: 'things', put: { id: 'ok' } }])).rejects.toThrow(
      /document id/,
    );
    await writer!.close();
    expect(await things().count()).toBe(0);

    writer = store.bulkWriter();
    await expect(writer.submit([{ collection: 'nope', put: { id: 'a' } }])).rejects.toThrow(
      /never declared/,
    );
    await expect(writer.submit([{ collection: 'things', put: { id: 'a' } }])).rejects.toThrow();
    expect(await things().count()).toBe(0);
  });
});
