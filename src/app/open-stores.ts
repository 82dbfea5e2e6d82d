import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/app-config.js';
import type { EventStore } from '../eventstore/event-store.port.js';
import {
  SqliteEventStore,
  type SqliteEventStoreOptions,
} from '../eventstore/sqlite/sqlite-event-store.js';
import type { ReadStore } from '../readstore/read-store.port.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';

/**
 * The embedded stores in the data directory: `events.sqlite` (the events), `read-models.sqlite`
 * (the projections, rebuildable: deleting it rebuilds them from the events at the next start)
 * and `primary.sqlite` (data derived from no event: the only copy, never rebuilt).
 */
export function embeddedStoreFiles(config: AppConfig): {
  events: string;
  readModels: string;
  primary: string;
} {
  return {
    events: join(config.dataDir, 'events.sqlite'),
    readModels: join(config.dataDir, 'read-models.sqlite'),
    primary: join(config.dataDir, 'primary.sqlite'),
  };
}

/** The configured event store: PostgreSQL or EventStoreDB/KurrentDB when set, else SQLite. */
export async function openEventStore(
  config: AppConfig,
  options: SqliteEventStoreOptions = {},
): Promise<EventStore> {
  // The server clients (gRPC, the MongoDB and PostgreSQL drivers) load only when configured.
  if (config.storage.postgresUrl) {
    const { PostgresEventStore } = await import('../eventstore/postgres/postgres-event-store.js');
    return PostgresEventStore.connect(config.storage.postgresUrl);
  }
  if (config.storage.eventStoreUrl) {
    const { EsdbEventStore } = await import('../eventstore/esdb/esdb-event-store.js');
    return new EsdbEventStore(config.storage.eventStoreUrl);
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return new SqliteEventStore(embeddedStoreFiles(config).events, options);
}

/** The configured read store: PostgreSQL or MongoDB when set, else SQLite. */
export async function openReadStore(config: AppConfig): Promise<ReadStore> {
  if (config.storage.postgresUrl) {
    const { PostgresReadStore } = await import('../readstore/postgres/postgres-read-store.js');
    return PostgresReadStore.connect(config.storage.postgresUrl, {
      tablePrefix: config.storage.postgresReadModelPrefix ?? 'rm_',
    });
  }
  if (config.storage.mongoUrl) {
    const { MongoReadStore } = await import('../readstore/mongo/mongo-read-store.js');
    return MongoReadStore.connect(config.storage.mongoUrl);
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return new SqliteReadStore(embeddedStoreFiles(config).readModels);
}

/**
 * The configured primary store: on MongoDB a database of its own on the same server (the read
 * models' database name with `_primary` appended), else `primary.sqlite`, synced on every commit.
 */
export async function openPrimaryStore(config: AppConfig): Promise<ReadStore> {
  if (config.storage.postgresUrl) {
    const { PostgresReadStore } = await import('../readstore/postgres/postgres-read-store.js');
    return PostgresReadStore.connect(config.storage.postgresUrl, {
      tablePrefix: 'pd_',
      maxConnections: 4,
    });
  }
  if (config.storage.mongoUrl) {
    const { MongoReadStore, databaseOf } = await import('../readstore/mongo/mongo-read-store.js');
    const url = config.storage.mongoUrl;
    return MongoReadStore.connect(url, primaryDatabaseOf(databaseOf(url)));
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return new SqliteReadStore(embeddedStoreFiles(config).primary, { durable: true });
}

/** The MongoDB database of the primary store, beside the read models' one. */
export function primaryDatabaseOf(readModelsDatabase: string): string {
  return `${readModelsDatabase}_primary`;
}

/** Both stores are the embedded SQLite files (one machine). */
export function embeddedStores(config: AppConfig): boolean {
  const { eventStoreUrl, mongoUrl, postgresUrl } = config.storage;
  return !eventStoreUrl && !mongoUrl && !postgresUrl;
}
