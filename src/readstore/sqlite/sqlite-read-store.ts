import Database from 'better-sqlite3';
import { FileChangeSignal } from '../../common/file-change-signal.js';
import { VersionWatch } from '../../common/version-watch.js';
import { SerialQueue } from '../../common/serial-queue.js';
import { encodeCursor, getPath } from '../cursor.js';
import { assertCollectionName, InvalidQueryError } from '../invalid-query.error.js';
import {
  DEFAULT_FIND_LIMIT,
  MAX_FIND_LIMIT,
  type BulkWriter,
  type Collection,
  type CollectionSpec,
  type Doc,
  type Filter,
  type FindOptions,
  type Page,
  type ReadStore,
  type ReadStoreSession,
} from '../read-store.port.js';
import { SqliteBulkWriter } from './sqlite-bulk-writer.js';
import { TABLE_COLUMNS, upgradeTableLayout } from './table-layout.js';
import {
  afterCursor,
  buildWhere,
  fieldExpr,
  joinAnd,
  orderBy,
  sortKeys,
  type SqlFragment,
  type SqlValue,
} from './sqlite-query-builder.js';

const TABLE_PREFIX = 'rm_';
const MAX_ID_LENGTH = 512;
const BUSY_TIMEOUT_MS = 10_000;
/** Write-ahead log checkpoint intervals, in pages: usual, and while catching up. */
const CHECKPOINT_PAGES = 1_000;
const CATCH_UP_CHECKPOINT_PAGES = 64_000;
/**
 * The bulk writer's thread checkpoints more often: there it runs beside the runner's work,
 * and what is left when the load ends is checkpointed while nothing else runs.
 */
const BULK_CHECKPOINT_PAGES = 16_000;

export interface SqliteReadStoreOptions {
  /**
   * Each commit synced to disk before it returns (`synchronous=FULL`), for a store that holds
   * the only copy of its data. Without it (`NORMAL`) a power cut may roll back the last commits,
   * which suits read models: they are rebuildable and a projection's checkpoint commits in the
   * same transaction as its documents, so both roll back together.
   */
  durable?: boolean;
}

/**
 * Read models in one SQLite file: a table per collection holding JSON documents, with
 * expression indexes on the declared fields (see table-layout.ts). Writes go through one
 * connection, one transaction at a time; reads use a second connection and see only committed
 * data.
 */
export class SqliteReadStore implements ReadStore {
  private readonly writer: Database.Database;
  private readonly reader: Database.Database;
  private readonly queue = new SerialQueue();
  private readonly known = new Set<string>();
  private readonly fileChanges: FileChangeSignal;
  /** See changeMark. */
  private mark = 0;
  private readonly otherCommits: VersionWatch;

  constructor(
    private readonly file: string,
    options: SqliteReadStoreOptions = {},
  ) {
    this.fileChanges = new FileChangeSignal(file);
    this.writer = new Database(file);
    this.writer.pragma('journal_mode = WAL');
    this.writer.pragma(`synchronous = ${options.durable ? 'FULL' : 'NORMAL'}`);
    this.writer.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // The only copy of its data may hold values to forget: freed space is zeroed, not left.
    if (options.durable) this.writer.pragma('secure_delete = ON');
    this.reader = new Database(file);
    this.reader.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const dataVersion = this.reader.prepare<[], number>('PRAGMA data_version').pluck();
    this.otherCommits = new VersionWatch(() => dataVersion.get() ?? null);
    const tables = this.writer
      .prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`)
      .all();
    for (const { name } of tables) {
      if (name.startsWith(TABLE_PREFIX)) this.known.add(name.slice(TABLE_PREFIX.length));
    }
  }

  ensureCollection(spec: CollectionSpec): Promise<void> {
    assertCollectionName(spec.name);
    const table = TABLE_PREFIX + spec.name;
    return this.queue.run(async () => {
      upgradeTableLayout(this.writer, table);
      this.writer.exec(`CREATE TABLE IF NOT EXISTS ${table} ${TABLE_COLUMNS}`);
      for (const index of spec.indexes ?? []) {
        if (index.fields.length === 0) throw new InvalidQueryError('an index needs fields');
        const name = `${table}__${index.fields.join('__').replace(/\./g, '_')}`;
        // `id` last, as every sort ends on it: the index alone gives the whole order.
        const columns = [...index.fields.map(fieldExpr), 'id'].join(', ');
        this.writer.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${columns})`);
      }
      this.known.add(spec.name);
    });
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new SqliteCollection<T>(this, name, this.reader, (write) =>
      this.queue.run(async () => {
        try {
          write(this.writer);
        } finally {
          this.mark++;
        }
      }),
    );
  }

  /** Freed space is zeroed (`secure_delete`); the log's old page images go with a checkpoint. */
  forgetOverwritten(): Promise<void> {
    return this.queue.run(async () => {
      this.writer.pragma('wal_checkpoint(TRUNCATE)');
    });
  }

  transaction<R>(work: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    return this.queue.run(async () => {
      this.writer.exec('BEGIN IMMEDIATE');
      const session: ReadStoreSession = {
        collection: <T extends Doc>(name: string) =>
          new SqliteCollection<T>(this, name, this.writer, async (write) => write(this.writer)),
      };
      try {
        const result = await work(session);
        this.writer.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        throw error;
      } finally {
        this.mark++;
      }
    });
  }

  /**
   * While far behind, the write-ahead log is checkpointed every 64,000 pages instead of every
   * 1,000: a page written again and again (index pages, above all) is copied into the database
   * and synced once per checkpoint, not once per few batches. Once caught up, the usual interval
   * returns and the log is checkpointed and truncated, so its size is only borrowed.
   */
  catchingUp(behind: boolean): Promise<void> {
    return this.queue.run(async () => {
      const pages = behind ? CATCH_UP_CHECKPOINT_PAGES : CHECKPOINT_PAGES;
      this.writer.pragma(`wal_autocheckpoint = ${pages}`);
      if (!behind) this.writer.pragma('wal_checkpoint(TRUNCATE)');
    });
  }

  /**
   * Commits of any process to this file, heard through change notifications (watched only while
   * someone listens). Where notifications do not work nothing is heard: keep polling as well.
   */
  onChanged(listener: () => void): () => void {
    return this.fileChanges.listen(listener);
  }

  /**
   * A writer in a thread of its own, on its own connection: inserting, indexing and committing
   * a batch of documents run beside the projection runner computing the next batch. Its
   * commits take the file's write lock as this store's own writes do (busy timeout 10 s).
   */
  bulkWriter(): BulkWriter {
    const writer = new SqliteBulkWriter(this.file, {
      tableOf: (collection) => this.tableFor(collection, true)!,
      maxIdLength: MAX_ID_LENGTH,
      busyTimeoutMs: BUSY_TIMEOUT_MS,
      autocheckpointPages: BULK_CHECKPOINT_PAGES,
    });
    const moved = () => void this.mark++;
    return {
      submit: (changes) => writer.submit(changes).finally(moved),
      close: () => writer.close().finally(moved),
    };
  }

  /**
   * Moves as soon as this store's own writes (its writer, its bulk writers) finish, and with
   * SQLite's `data_version`, which moves with every other connection's commit (looked at once
   * per turn of the event loop, see VersionWatch).
   */
  changeMark(): number {
    if (this.otherCommits.moved()) this.mark++;
    return this.mark;
  }

  isReady(): Promise<boolean> {
    try {
      cached(this.reader, 'SELECT 1').get();
      return Promise.resolve(true);
    } catch {
      return Promise.resolve(false);
    }
  }

  close(): Promise<void> {
    this.fileChanges.close();
    return this.queue.run(async () => {
      if (this.reader.open) this.reader.close();
      if (this.writer.open) this.writer.close();
    });
  }

  /** @internal */
  tableFor(name: string, forWrite: boolean): string | null {
    assertCollectionName(name);
    if (this.known.has(name)) return TABLE_PREFIX + name;
    if (forWrite) throw new InvalidQueryError(`collection "${name}" was never declared`);
    return null;
  }
}

const statementCache = new WeakMap<
  Database.Database,
  Map<string, Database.Statement<SqlValue[]>>
>();

/** Prepared statements are reused per connection: queries repeat with the same shape. */
function cached(db: Database.Database, sql: string): Database.Statement<SqlValue[]> {
  let statements = statementCache.get(db);
  if (!statements) statementCache.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size > 500) statements.clear();
    statement = db.prepare<SqlValue[]>(sql);
    statements.set(sql, statement);
  }
  return statement;
}

type WriteRunner = (write: (db: Database.Database) => void) => Promise<void>;

class SqliteCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly store: SqliteReadStore,
    private readonly name: string,
    private readonly readDb: Database.Database,
    private readonly runWrite: WriteRunner,
  ) {}

  async get(id: string): Promise<T | null> {
    const table = this.store.tableFor(this.name, false);
    if (!table) return null;
    const row = cached(this.readDb, `SELECT doc FROM ${table} WHERE id = ?`).get(id) as
      { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<Page<T>> {
    const limit = options.limit ?? DEFAULT_FIND_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FIND_LIMIT) {
      throw new InvalidQueryError(`limit must be an integer 1-${MAX_FIND_LIMIT}`);
    }
    const keys = sortKeys(options.sort);
    const clauses: SqlFragment[] = [buildWhere(filter)];
    if (options.cursor) clauses.push(afterCursor(keys, options.cursor));
    const where = joinAnd(clauses);
    const table = this.store.tableFor(this.name, false);
    if (!table) return { items: [], nextCursor: null };
    const sql = `SELECT doc FROM ${table} WHERE ${where.sql} ORDER BY ${orderBy(keys)} LIMIT ?`;
    const rows = cached(this.readDb, sql).all(...where.params, limit + 1) as { doc: string }[];
    const items = rows.slice(0, limit).map((r) => JSON.parse(r.doc) as T);
    const last = items[items.length - 1];
    const nextCursor =
      rows.length > limit ? encodeCursor(keys.map((k) => getPath(last, k.path))) : null;
    return { items, nextCursor };
  }

  async count(filter: Filter = {}): Promise<number> {
    const where = buildWhere(filter);
    const table = this.store.tableFor(this.name, false);
    if (!table) return 0;
    const sql = `SELECT COUNT(*) AS n FROM ${table} WHERE ${where.sql}`;
    const row = cached(this.readDb, sql).get(...where.params) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  async put(doc: T): Promise<void> {
    if (typeof doc.id !== 'string' || doc.id.length === 0 || doc.id.length > MAX_ID_LENGTH) {
      throw new InvalidQueryError(`document id must be 1-${MAX_ID_LENGTH} characters`);
    }
    const table = this.store.tableFor(this.name, true);
    const json = JSON.stringify(doc);
    await this.runWrite((db) => {
      cached(db, `INSERT OR REPLACE INTO ${table} (id, doc) VALUES (?, ?)`).run(doc.id, json);
    });
  }

  async delete(id: string): Promise<void> {
    const table = this.store.tableFor(this.name, true);
    await this.runWrite((db) => {
      cached(db, `DELETE FROM ${table} WHERE id = ?`).run(id);
    });
  }

  async clear(): Promise<void> {
    const table = this.store.tableFor(this.name, true);
    await this.runWrite((db) => {
      cached(db, `DELETE FROM ${table}`).run();
    });
  }
}
