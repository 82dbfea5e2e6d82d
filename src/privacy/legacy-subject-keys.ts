import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { ReadStore } from '../readstore/read-store.port.js';
import { SUBJECT_KEYS, type SubjectKeyDoc } from './subject-key-vault.js';

interface LegacyRow {
  subject: string;
  sealed_key: string | null;
  created_at: string;
  erased_at: string | null;
}

/**
 * Subject keys from `subject-keys.db`, the file releases before kept them in, into the store
 * (already sealed with the same service key, so copied as they are). A key the store already
 * has stays, unless the file says it was erased: an erasure always wins. Returns how many rows
 * were read; with `remove`, the file goes afterwards, so that a key erased later has no copy
 * left behind.
 */
export async function importLegacySubjectKeys(
  file: string,
  store: ReadStore,
  remove: boolean,
): Promise<number> {
  if (!existsSync(file)) return 0;
  await store.ensureCollection(SUBJECT_KEYS);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  let rows: LegacyRow[];
  try {
    rows = db
      .prepare<[], LegacyRow>('SELECT subject, sealed_key, created_at, erased_at FROM subject_keys')
      .all();
  } finally {
    db.close();
  }
  await store.transaction(async (session) => {
    const keys = session.collection<SubjectKeyDoc>(SUBJECT_KEYS.name);
    for (const row of rows) {
      const present = await keys.get(row.subject);
      // Kept as it is unless the file erased what the store still holds.
      if (present && (present.erasedAt || !row.erased_at)) continue;
      await keys.put({
        id: row.subject,
        sealedKey: row.erased_at ? null : row.sealed_key,
        createdAt: row.created_at,
        erasedAt: row.erased_at,
      });
    }
  });
  if (remove) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
  return rows.length;
}
