import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';

/** Every document of every collection (`rm_<collection>`) of a SQLite store file, by id. */
export type StoreSnapshot = Record<string, Record<string, unknown>[]>;

/** The documents of a SQLite store file, read with a connection of its own (read-only). */
export function snapshotStore(file: string): StoreSnapshot {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\'`,
      )
      .all()
      .map((r) => r.name)
      .sort();
    const out: StoreSnapshot = {};
    for (const table of tables) {
      out[table.slice('rm_'.length)] = db
        .prepare<[], { doc: string }>(`SELECT doc FROM ${table} ORDER BY id`)
        .all()
        .map((r) => JSON.parse(r.doc) as Record<string, unknown>);
    }
    return out;
  } finally {
    db.close();
  }
}

/** Deletes a SQLite file with its write-ahead log and shared memory, as an operator would. */
export function deleteStoreFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  if (existsSync(file)) throw new Error(`${file} is still there`);
}

/** The documents of the tables `<prefix><collection>` of a PostgreSQL database, by id. */
export async function snapshotPostgres(url: string, prefix: 'rm_' | 'pd_'): Promise<StoreSnapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'SELECT tablename AS name FROM pg_tables WHERE starts_with(tablename, $1) ORDER BY 1',
      [prefix],
    );
    const out: StoreSnapshot = {};
    for (const { name } of rows) {
      const docs = await client.query<{ doc: Record<string, unknown> }>(
        `SELECT doc FROM ${name} ORDER BY id`,
      );
      out[name.slice(prefix.length)] = docs.rows.map((r) => r.doc);
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Drops every read-model table (`rm_*`) of a PostgreSQL database, as an operator would. */
export async function dropPostgresReadModels(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE starts_with(tablename, 'rm_')`,
    );
    for (const { name } of rows) await client.query(`DROP TABLE ${name}`);
  } finally {
    await client.end();
  }
}
