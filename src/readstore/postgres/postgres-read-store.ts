import pg from 'pg';
import { encodeCursor, getPath } from '../cursor.js';
import { assertCollectionName, InvalidQueryError } from '../invalid-query.error.js';
import {
  DEFAULT_FIND_LIMIT,
  MAX_FIND_LIMIT,
  type BulkWriter,
  type ChangeMark,
  type Collection,
  type CollectionSpec,
  type Doc,
  type Filter,
  type FindOptions,
  type Page,
  type ReadStore,
  type ReadStoreSession,
} from '../read-store.port.js';
import { OncePerTurn } from '../../common/once-per-turn.js';
import { PostgresBulkWriter } from './postgres-bulk-writer.js';
import { NEWER_ONLY, storableJson, validDocumentId } from './postgres-documents.js';
import { createIfMissing } from './idempotent-ddl.js';
import { checkOut, openPool } from './postgres-connection.js';
import { isTransient, rollback } from './postgres-errors.js';
import {
  afterCursor,
  buildWhere,
  fieldExpr,
  joinAnd,
  numbered,
  orderBy,
  sortKeys,
  type PgFragment,
} from './postgres-query-builder.js';

/** Read models' tables; the primary store's are `pd_` (its data is rebuilt from nothing). */
const READ_MODEL_PREFIX = 'rm_';
const MAX_ATTEMPTS = 5;

/** Runs one statement: on the pool, or on the connection of a transaction. */
type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/**
 * Read models in PostgreSQL (`SLIPWAY_POSTGRES_URL`): a table per collection, `id` and the
 * document as `jsonb`, with expression indexes on the declared fields. A document that carries
 * `_position` (a projection's) replaces the stored one only when its position is higher, so a
 * projection that applies an event twice, or a fenced-off former lease holder, changes nothing.
 * String order is the database's collation (byte order with `LC_COLLATE=C`).
 */
export class PostgresReadStore implements ReadStore {
  private readonly known = new Set<string>();
  /** The question for the change mark, shared by every caller of a turn. */
  private readonly marking = new OncePerTurn<ChangeMark>(async () => {
    const { rows } = await this.pool.query<{ mark: string }>(
      'SELECT pg_current_snapshot()::text AS mark',
    );
    return rows[0].mark;
  });

  private constructor(
    private readonly pool: pg.Pool,
    private readonly prefix: string,
  ) {}

  /** Connects (a pool of 8 connections unless told) and learns the collections that exist. */
  static async connect(
    url: string,
    options: { maxConnections?: number; tablePrefix?: string } = {},
  ): Promise<PostgresReadStore> {
    const prefix = options.tablePrefix ?? READ_MODEL_PREFIX;
    // It is written into SQL: letters and digits ending in `_`, nothing else.
    if (!/^[a-z][a-z0-9]{0,14}_$/.test(prefix)) throw new InvalidQueryError('invalid table prefix');
    const pool = openPool(url, options.maxConnections ?? 8);
    try {
      const { rows } = await pool.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables
         WHERE schemaname = current_schema() AND starts_with(tablename, $1)`,
        [prefix],
      );
      const store = new PostgresReadStore(pool, prefix);
      for (const { name } of rows) store.known.add(name.slice(prefix.length));
      return store;
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    assertCollectionName(spec.name);
    const table = this.prefix + spec.name;
    await createIfMissing(
      this.pool,
      `CREATE TABLE IF NOT EXISTS ${table} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`,
    );
    for (const index of spec.indexes ?? []) {
      if (index.fields.length === 0) throw new InvalidQueryError('an index needs fields');
      const name = `${table}__${index.fields.join('__').replace(/\./g, '_')}`.slice(0, 63);
      const columns = [...index.fields.map((f) => `(${fieldExpr(f)})`), 'id'].join(', ');
      await createIfMissing(
        this.pool,
        `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${columns})`,
      );
    }
    this.known.add(spec.name);
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new PostgresCollection<T>(this, name, this.pool);
  }

  /**
   * Runs `work` in one REPEATABLE READ transaction: a row that another transaction changed
   * since this one began cannot be written over (PostgreSQL refuses it as a serialization
   * failure), so two replicas cannot both take a lease, and a holder taken over cannot renew
   * it. On such a failure, or a deadlock, the whole of `work` runs again (as MongoDB's
   * transactions do), up to five times.
   */
  async transaction<R>(work: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(work);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isTransient(error)) throw error;
      }
    }
  }

  private async once<R>(work: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    const client = await checkOut(this.pool);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const result = await work({
        collection: <T extends Doc>(name: string) => new PostgresCollection<T>(this, name, client),
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = await rollback(client, error);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * The server's current snapshot (`pg_current_snapshot()`): it stays the same exactly while no
   * transaction commits anywhere in the cluster, since every commit either leaves its list of
   * running transactions or moves its upper bound. So it moves with every commit to this store,
   * from any process, and with other commits too (appends, lease renewals): kept documents are
   * dropped more often than needed, never less. Asked at most once per turn of the event loop,
   * shared by the callers of that turn (they are concurrent with any commit it misses).
   */
  askChangeMark(): Promise<ChangeMark> {
    return this.marking.get();
  }

  /**
   * The table rewritten (`VACUUM FULL`), so the overwritten row's old version leaves its files;
   * meant for small tables (it locks the table meanwhile). The write-ahead log and backups keep
   * the old version until they are recycled.
   */
  async forgetOverwritten(collection: string): Promise<void> {
    const table = this.tableFor(collection, false);
    if (table) await this.pool.query(`VACUUM FULL ${table}`);
  }

  async isReady(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Catching up, the projection runner's documents in a few statements a batch instead of a
   * round trip each (see PostgresBulkWriter).
   */
  bulkWriter(): BulkWriter {
    return new PostgresBulkWriter(this.pool, (name) => this.tableFor(name, true));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** @internal The table of a collection: for a write, one never declared is an error. */
  tableFor(name: string, forWrite: true): string;
  tableFor(name: string, forWrite: boolean): string | null;
  tableFor(name: string, forWrite: boolean): string | null {
    assertCollectionName(name);
    if (this.known.has(name)) return this.prefix + name;
    if (forWrite) throw new InvalidQueryError(`collection "${name}" was never declared`);
    return null;
  }
}

class PostgresCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly store: PostgresReadStore,
    private readonly name: string,
    private readonly db: Queryable,
  ) {}

  async get(id: string): Promise<T | null> {
    const table = this.store.tableFor(this.name, false);
    if (!table) return null;
    const { rows } = await this.db.query<{ doc: T }>(`SELECT doc FROM ${table} WHERE id = $1`, [
      id,
    ]);
    return rows[0]?.doc ?? null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<Page<T>> {
    const limit = options.limit ?? DEFAULT_FIND_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FIND_LIMIT) {
      throw new InvalidQueryError(`limit must be an integer 1-${MAX_FIND_LIMIT}`);
    }
    const keys = sortKeys(options.sort);
    const clauses: PgFragment[] = [buildWhere(filter)];
    if (options.cursor) clauses.push(afterCursor(keys, options.cursor));
    const where = joinAnd(clauses);
    const table = this.store.tableFor(this.name, false);
    if (!table) return { items: [], nextCursor: null };
    const sql = `SELECT doc FROM ${table} WHERE ${where.sql} ORDER BY ${orderBy(keys)} LIMIT ?`;
    const { rows } = await this.db.query<{ doc: T }>(numbered(sql), [...where.params, limit + 1]);
    const items = rows.slice(0, limit).map((r) => r.doc);
    const last = items[items.length - 1];
    const nextCursor =
      rows.length > limit ? encodeCursor(keys.map((k) => getPath(last, k.path))) : null;
    return { items, nextCursor };
  }

  async count(filter: Filter = {}): Promise<number> {
    const where = buildWhere(filter);
    const table = this.store.tableFor(this.name, false);
    if (!table) return 0;
    const { rows } = await this.db.query<{ n: string }>(
      numbered(`SELECT count(*) AS n FROM ${table} WHERE ${where.sql}`),
      where.params,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async put(doc: T): Promise<void> {
    const id = validDocumentId(doc);
    const table = this.store.tableFor(this.name, true);
    // A projection's document replaces only an older one (see the class comment).
    await this.db.query(
      `INSERT INTO ${table} (id, doc) VALUES ($1, $2::jsonb)
       ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc WHERE ${NEWER_ONLY(table)}`,
      [id, storableJson(doc)],
    );
  }

  async delete(id: string): Promise<void> {
    const table = this.store.tableFor(this.name, true);
    await this.db.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
  }

  async clear(): Promise<void> {
    const table = this.store.tableFor(this.name, true);
    await this.db.query(`DELETE FROM ${table}`);
  }
}
