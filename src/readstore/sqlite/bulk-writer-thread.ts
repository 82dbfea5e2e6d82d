/**
 * What the bulk writer's thread runs, as source: an `eval` worker runs the same from `dist/`
 * and from the TypeScript sources under test, where no compiled file sits beside this one.
 * It opens its own connection to the file and commits the messages in arrival order, those
 * already queued together in one transaction; after a failure it refuses every later message
 * (see BulkWriter).
 *
 * In:  `{ seq, changes }`, `changes` flat: `table, id, json` per put, `table, id, null` per
 *      delete (table names checked by the caller); `{ close: true }`.
 * Out: `{ seq }` once committed, `{ seq, error }` when refused or rolled back (a failure rolls
 *      back every submission of its transaction).
 */
export const BULK_WRITER_THREAD_SOURCE = String.raw`
'use strict';
const { parentPort, receiveMessageOnPort, workerData } = require('node:worker_threads');
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
function refuse(seq, error) {
  parentPort.postMessage({ seq, error });
}
parentPort.on('message', (first) => {
  if (first.close) return stop();
  // Whatever else is queued already commits in the same transaction: one commit for many
  // submissions when this thread is the slower side, one each when it keeps up.
  const group = [first];
  let closing = false;
  for (let next = receiveMessageOnPort(parentPort); next; next = receiveMessageOnPort(parentPort)) {
    if (next.message.close) {
      closing = true;
      break;
    }
    group.push(next.message);
  }
  if (failure !== null) {
    for (const { seq } of group) refuse(seq, 'an earlier bulk write failed: ' + failure);
  } else {
    try {
      db.exec('BEGIN IMMEDIATE');
      for (const { changes } of group) write(changes);
      db.exec('COMMIT');
      for (const { seq } of group) parentPort.postMessage({ seq });
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      failure = error instanceof Error ? error.message : String(error);
      for (const { seq } of group) refuse(seq, failure);
    }
  }
  if (closing) stop();
});
function write(changes) {
  for (let i = 0; i < changes.length; i += 3) {
    const table = changes[i];
    const json = changes[i + 2];
    if (json === null) statement('DELETE FROM ' + table + ' WHERE id = ?').run(changes[i + 1]);
    else statement('INSERT OR REPLACE INTO ' + table + ' (id, doc) VALUES (?, ?)').run(changes[i + 1], json);
  }
}
function stop() {
  db.close();
  parentPort.close();
}
`;
