import type Database from 'better-sqlite3';

/**
 * A collection's table: rows in insertion order (rowid), the document id unique beside them.
 *
 * Until e28efb0 tables were `WITHOUT ROWID`, keyed by id: each document sat in the id's
 * B-tree, and ids that do not arrive in key order (the audit trail's `p<position>`: `p100000`
 * sorts between `p10000` and `p10001`; random UUIDs) wrote their whole document into the
 * middle of full pages, splitting them. Appended by rowid, only the small id entry lands
 * there: a rebuild writes less than half as much to the write-ahead log.
 */
export const TABLE_COLUMNS = '(id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)';

/**
 * Moves a table of the earlier layout (WITHOUT ROWID) to the current one, in one transaction:
 * every row copied as it is, the old table and its indexes dropped (the caller creates the
 * indexes again). Done once per table, by whichever process declares the collection first;
 * the layout is looked at inside the transaction, so a second process waits and finds it done.
 * Other writers to the file wait meanwhile (164,000 audit entries took 1.9 s).
 */
export function upgradeTableLayout(db: Database.Database, table: string): void {
  if (!hasEarlierLayout(db, table)) return;
  beginWaitingOutCopies(db);
  try {
    if (hasEarlierLayout(db, table)) {
      // Quoted, with a character no index name holds (they share the namespace).
      const moving = `"${table}:moving"`;
      db.exec(`DROP TABLE IF EXISTS ${moving}`);
      db.exec(`CREATE TABLE ${moving} ${TABLE_COLUMNS}`);
      db.exec(`INSERT INTO ${moving} (id, doc) SELECT id, doc FROM ${table} ORDER BY id`);
      db.exec(`DROP TABLE ${table}`);
      db.exec(`ALTER TABLE ${moving} RENAME TO ${table}`);
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function hasEarlierLayout(db: Database.Database, table: string): boolean {
  const row = db
    .prepare<[string], { sql: string }>(
      `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`,
    )
    .get(table);
  return row !== undefined && /WITHOUT\s+ROWID/i.test(row.sql);
}

/** Busy timeouts a process waits for another's copy (2.2 s per 228 MB measured): 10 minutes. */
const COPY_WAITS = 60;

/**
 * BEGIN IMMEDIATE, waiting longer than the busy timeout: another process starting at the same
 * time may be copying a large table, and holds the write lock until it is done.
 */
function beginWaitingOutCopies(db: Database.Database): void {
  for (let attempt = 1; ; attempt++) {
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === 'SQLITE_BUSY';
      if (!busy || attempt >= COPY_WAITS) throw error;
    }
  }
}
