import type pg from 'pg';
import type { BulkWriter, Doc, DocChange } from '../read-store.port.js';
import { checkOut } from './postgres-connection.js';
import { rollback } from './postgres-errors.js';
import { NEWER_ONLY, storableJson, validDocumentId } from './postgres-documents.js';

interface Queued {
  changes: DocChange[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What a transaction leaves of a document: its last change, and whether a delete came before. */
interface Outcome {
  doc: Doc | null;
  deletedFirst: boolean;
}

/**
 * A BulkWriter over the store's pool: the submissions queued while one commits are written
 * together in the next transaction, and each table's documents in two statements (one delete of
 * them all, one upsert of them all) instead of a round trip each. The upsert keeps the store's
 * rule that a projection's document replaces only an older one.
 */
export class PostgresBulkWriter implements BulkWriter {
  private queue: Queued[] = [];
  private draining: Promise<void> | null = null;
  private failure: unknown = null;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    /** The table of a declared collection; throws for one never declared. */
    private readonly tableFor: (collection: string) => string,
  ) {}

  submit(changes: DocChange[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the bulk writer is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ changes, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.draining;
  }

  private async drain(): Promise<void> {
    // Never finishes in the turn that started it, so `draining` is set before it is cleared.
    await Promise.resolve();
    while (this.queue.length > 0) {
      const group = this.queue.splice(0);
      try {
        // Each submission may have been computed on top of one that failed: refused too.
        if (this.failure !== null) throw this.failure;
        await this.write(group.flatMap((queued) => queued.changes));
        for (const queued of group) queued.resolve();
      } catch (error) {
        this.failure ??= error;
        for (const queued of group) queued.reject(error);
      }
    }
    this.draining = null;
  }

  private async write(changes: DocChange[]): Promise<void> {
    const tables = outcomesByTable(changes, this.tableFor);
    const client = await checkOut(this.pool);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      for (const [table, outcomes] of tables) {
        const deleted: string[] = [];
        const put: string[] = [];
        for (const [id, { doc, deletedFirst }] of outcomes) {
          if (doc === null || deletedFirst) deleted.push(id);
          if (doc !== null) put.push(storableJson(doc));
        }
        if (deleted.length > 0) {
          await client.query(`DELETE FROM ${table} WHERE id = ANY($1::text[])`, [deleted]);
        }
        if (put.length > 0) {
          await client.query(
            `INSERT INTO ${table} (id, doc)
             SELECT d->>'id', d FROM jsonb_array_elements($1::jsonb) AS d
             ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc WHERE ${NEWER_ONLY(table)}`,
            [`[${put.join(',')}]`],
          );
        }
      }
      await client.query('COMMIT');
    } catch (error) {
      broken = await rollback(client, error);
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * Per table, what the changes leave of each document, in one statement each: one upsert cannot
 * write a row twice, and the last change is the one that stands. A delete followed by a put
 * still deletes first, as the two would one after the other (the put then replaces nothing).
 */
function outcomesByTable(
  changes: DocChange[],
  tableFor: (collection: string) => string,
): Map<string, Map<string, Outcome>> {
  const tables = new Map<string, Map<string, Outcome>>();
  for (const change of changes) {
    const table = tableFor(change.collection);
    let outcomes = tables.get(table);
    if (!outcomes) tables.set(table, (outcomes = new Map()));
    if ('delete' in change) {
      outcomes.set(change.delete, { doc: null, deletedFirst: false });
      continue;
    }
    const id = validDocumentId(change.put);
    const before = outcomes.get(id);
    const deletedFirst = before !== undefined && (before.doc === null || before.deletedFirst);
    outcomes.set(id, { doc: change.put, deletedFirst });
  }
  return tables;
}
