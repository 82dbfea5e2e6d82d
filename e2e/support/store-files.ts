import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';

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
