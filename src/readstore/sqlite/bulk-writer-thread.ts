/**
 * What the bulk writer's thread runs, as source: an `eval` worker runs the same from `dist/`
 * and from the TypeScript sources under test, where no compiled file sits beside this one.
 * It opens its own connection to the file and commits each message in one transaction, in
 * arrival order; after a failure it refuses every later message (see BulkWriter).
 *
 * In:  `{ seq, changes }`, `changes` flat: `table, id, json` per put, `table, id, null` per
 *      delete (table names checked by the caller); `{ close: true }`.
 * Out: `{ seq }` once committed, `{ seq, error }` when refused or rolled back.
 */
export const BULK_WRITER_THREAD_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('synchronous = NORMAL');
// Checkpoints run in the connection that commits: while loading, as seldom as the store's own.
db.pragma('wal_autocheckpoint = ' + workerData.autocheckpointPages);
const statements = new Map();
function statement(sql) {
  let s = statements.get(sql);
  if (!s) statements.set(sql, (s = db.prepare(sql)));
  return s;
}
let failure = null;
parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    parentPort.close();
    return;
  }
  const { seq, changes } = message;
  if (failure !== null) {
    parentPort.postMessage({ seq, error: 'an earlier bulk write failed: ' + failure });
    return;
  }
  try {
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < changes.length; i += 3) {
      const table = changes[i];
      const json = changes[i + 2];
      if (json === null) statement('DELETE FROM ' + table + ' WHERE id = ?').run(changes[i + 1]);
      else statement('INSERT OR REPLACE INTO ' + table + ' (id, doc) VALUES (?, ?)').run(changes[i + 1], json);
    }
    db.exec('COMMIT');
    parentPort.postMessage({ seq });
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    failure = error instanceof Error ? error.message : String(error);
    parentPort.postMessage({ seq, error: failure });
  }
});
`;
