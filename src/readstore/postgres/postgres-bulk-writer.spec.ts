import { expect, it } from '@jest/globals';
import pg from 'pg';
import { postgresClusterForSuite } from '../../common/testing/postgres-cluster-suite.js';
import { describeBulkWriterContract } from '../testing/bulk-writer.contract-suite.js';
import { PostgresReadStore } from './postgres-read-store.js';

const cluster = postgresClusterForSuite();
let url: string;

describeBulkWriterContract(
  'PostgreSQL (a few statements a transaction)',
  async () => {
    url = await cluster().createDatabase();
    const store = await PostgresReadStore.connect(url);
    return { store, dispose: () => store.close() };
  },
  (current) => {
    const things = () => current().store.collection('things');

    it('leaves what changes one after another would, for a document changed several times', async () => {
      await things().put({ id: 'gone', size: 1 });
      await things().put({ id: 'back', size: 1, _position: 50 });
      await current().writer.submit([
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
      await current().writer.submit([
        { collection: 'things', put: { id: 'p', size: 2, _position: 9 } },
        { collection: 'things', put: { id: 'q', size: 2, _position: 11 } },
        { collection: 'things', put: { id: 'plain', size: 2 } },
      ]);
      expect(await things().get('p')).toEqual({ id: 'p', size: 1, _position: 10 });
      expect(await things().get('q')).toEqual({ id: 'q', size: 2, _position: 11 });
      // A document without a position replaces whatever is there.
      await current().writer.submit([{ collection: 'things', put: { id: 'q', size: 3 } }]);
      expect(await things().get('q')).toEqual({ id: 'q', size: 3 });
    });

    it('stores U+0000 as U+FFFD, as the store’s own writes do', async () => {
      await current().writer.submit([{ collection: 'things', put: { id: 'l', text: 'a\u0000b' } }]);
      expect(await things().get('l')).toEqual({ id: 'l', text: 'a\ufffdb' });
    });

    it('rolls back a transaction that fails, and refuses the submissions after it', async () => {
      await current().writer.submit([{ collection: 'things', put: { id: 'kept', size: 1 } }]);
      // Another connection drops the table behind the writer's back: its next upsert fails.
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      await other.query('DROP TABLE rm_others');
      await other.end();
      const failing = current().writer.submit([
        { collection: 'things', put: { id: 'rolled-back', size: 2 } },
        { collection: 'others', put: { id: 'o' } },
      ]);
      const after = current().writer.submit([
        { collection: 'things', put: { id: 'after', size: 3 } },
      ]);
      await expect(failing).rejects.toThrow(/rm_others/);
      await expect(after).rejects.toThrow(/rm_others/);
      expect(await things().get('kept')).toMatchObject({ size: 1 });
      expect(await things().get('rolled-back')).toBeNull();
      expect(await things().get('after')).toBeNull();
    });
  },
);
