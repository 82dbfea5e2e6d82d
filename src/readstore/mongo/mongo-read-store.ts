import { MongoClient, type ClientSession, type Db, type Document } from 'mongodb';
import { encodeCursor } from '../cursor.js';
import { assertCollectionName, InvalidQueryError } from '../invalid-query.error.js';
import {
  DEFAULT_FIND_LIMIT,
  MAX_FIND_LIMIT,
  type Collection,
  type CollectionSpec,
  type Doc,
  type Filter,
  type FindOptions,
  type Page,
  type ReadStore,
  type ReadStoreSession,
} from '../read-store.port.js';
import {
  afterCursorQuery,
  conditionalReplace,
  cursorValues,
  fromStored,
  hasPosition,
  indexName,
  mongoField,
  mongoSortKeys,
  toMongoFilter,
  toMongoSort,
  toStored,
} from './mongo-query.js';

/** A standalone server has no transactions; the read models need them. */
export class StandaloneMongoError extends Error {
  constructor() {
    super(
      'SLIPWAY_MONGODB_URL points at a standalone MongoDB server: Slipway commits read models ' +
        'and their checkpoints in one transaction, which needs a replica set (one node is ' +
        'enough: start mongod with --replSet rs0 and run rs.initiate())',
    );
    this.name = 'StandaloneMongoError';
  }
}

/**
 * The ReadStore port on MongoDB through the official driver. Documents keep their fields and
 * take `id` as `_id`; queries come from mongo-query.ts (pure, tested without a server).
 */
export class MongoReadStore implements ReadStore {
  private readonly known = new Set<string>();

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  /**
   * Connects, refuses a standalone server, and learns the collections that exist. The database
   * is the URL's (default `slipway`) unless `database` names another (the tests use one each).
   */
  static async connect(url: string, database?: string): Promise<MongoReadStore> {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
    await client.connect();
    try {
      const db = client.db(database ?? databaseOf(url));
      const hello = await db.admin().command({ hello: 1 });
      if (typeof hello.setName !== 'string' && hello.msg !== 'isdbgrid') {
        throw new StandaloneMongoError();
      }
      const store = new MongoReadStore(client, db);
      for (const c of await db.listCollections({}, { nameOnly: true }).toArray()) {
        store.known.add(c.name);
      }
      return store;
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    assertCollectionName(spec.name);
    if (!this.known.has(spec.name)) {
      await this.db.createCollection(spec.name).catch((error: { codeName?: string }) => {
        if (error.codeName !== 'NamespaceExists') throw error;
      });
    }
    for (const index of spec.indexes ?? []) {
      if (index.fields.length === 0) throw new InvalidQueryError('an index needs fields');
      const keys = Object.fromEntries(index.fields.map((f) => [mongoField(f), 1]));
      await this.db.collection(spec.name).createIndex(keys, { name: indexName(index.fields) });
    }
    this.known.add(spec.name);
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new MongoCollection<T>(this, name, undefined);
  }

  async transaction<R>(work: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    const session = this.client.startSession();
    try {
      let result: R | undefined;
      await session.withTransaction(async () => {
        result = await work({
          collection: <T extends Doc>(name: string) => new MongoCollection<T>(this, name, session),
        });
      });
      return result as R;
    } finally {
      await session.endSession();
    }
  }

  async isReady(): Promise<boolean> {
    try {
      await this.db.command({ ping: 1 });
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Drops this store's database (tests). */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
  }

  /** @internal */
  handle(name: string, forWrite: boolean) {
    assertCollectionName(name);
    if (forWrite && !this.known.has(name)) {
      throw new InvalidQueryError(`collection "${name}" was never declared`);
    }
    return this.db.collection<Document>(name);
  }
}

/** The database named in the URL's path, or `slipway`. */
export function databaseOf(url: string): string {
  return /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?/]+)/.exec(url)?.[1] ?? 'slipway';
}

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly store: MongoReadStore,
    private readonly name: string,
    private readonly session: ClientSession | undefined,
  ) {}

  private get options() {
    return this.session ? { session: this.session } : {};
  }

  async get(id: string): Promise<T | null> {
    const found = await this.store
      .handle(this.name, false)
      .findOne({ _id: id } as Document, this.options);
    return found ? fromStored<T>(found) : null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<Page<T>> {
    const limit = options.limit ?? DEFAULT_FIND_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FIND_LIMIT) {
      throw new InvalidQueryError(`limit must be an integer 1-${MAX_FIND_LIMIT}`);
    }
    const keys = mongoSortKeys(options.sort);
    const where = toMongoFilter(filter);
    const query = options.cursor
      ? { $and: [where, afterCursorQuery(keys, options.cursor)] }
      : where;
    const rows = await this.store
      .handle(this.name, false)
      .find(query, this.options)
      .sort(toMongoSort(keys))
      .limit(limit + 1)
      .toArray();
    const items = rows.slice(0, limit).map((r) => fromStored<T>(r));
    const nextCursor =
      rows.length > limit ? encodeCursor(cursorValues(keys, items[items.length - 1])) : null;
    return { items, nextCursor };
  }

  async count(filter: Filter = {}): Promise<number> {
    return this.store.handle(this.name, false).countDocuments(toMongoFilter(filter), this.options);
  }

  async put(doc: T): Promise<void> {
    const handle = this.store.handle(this.name, true);
    if (hasPosition(doc)) {
      await handle.updateOne({ _id: doc.id } as Document, conditionalReplace(doc), {
        ...this.options,
        upsert: true,
      });
    } else {
      await handle.replaceOne({ _id: doc.id } as Document, toStored(doc), {
        ...this.options,
        upsert: true,
      });
    }
  }

  async delete(id: string): Promise<void> {
    await this.store.handle(this.name, true).deleteOne({ _id: id } as Document, this.options);
  }

  async clear(): Promise<void> {
    await this.store.handle(this.name, true).deleteMany({}, this.options);
  }
}
