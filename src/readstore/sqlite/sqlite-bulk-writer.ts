import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { InvalidQueryError } from '../invalid-query.error.js';
import type { BulkWriter, DocChange } from '../read-store.port.js';
import { BULK_WRITER_THREAD_SOURCE } from './bulk-writer-thread.js';

export interface SqliteBulkWriterOptions {
  /** The table of a declared collection; throws for any other name. */
  tableOf: (collection: string) => string;
  maxIdLength: number;
  busyTimeoutMs: number;
  /** The write-ahead log's checkpoint interval of the thread's connection, in pages. */
  autocheckpointPages: number;
}

interface Reply {
  seq: number;
  error?: string;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * A BulkWriter over its own connection in a worker thread: SQLite's work for a submission
 * (inserting, indexing, committing) runs on the other core while the caller computes the next
 * one. Documents are serialized and checked here, so the thread only binds strings.
 */
export class SqliteBulkWriter implements BulkWriter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiter>();
  private readonly exited: Promise<void>;
  private seq = 0;
  private broken: Error | null = null;
  private closing: Promise<void> | null = null;
  /** The last submission, settled either way. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    file: string,
    private readonly options: SqliteBulkWriterOptions,
  ) {
    this.worker = new Worker(BULK_WRITER_THREAD_SOURCE, {
      eval: true,
      workerData: {
        file,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        busyTimeoutMs: options.busyTimeoutMs,
        autocheckpointPages: options.autocheckpointPages,
      },
    });
    this.worker.on('message', (reply: Reply) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.fail(new Error('the bulk writer thread has stopped'));
        resolve();
      }),
    );
  }

  submit(changes: DocChange[]): Promise<void> {
    if (this.closing) return Promise.reject(new Error('the bulk writer is closed'));
    if (this.broken) return Promise.reject(this.broken);
    let flat: (string | null)[];
    try {
      flat = this.flatten(changes);
    } catch (error) {
      // Later submissions may have been computed on top of this one: refuse them as well.
      this.broken = error instanceof Error ? error : new Error(String(error));
      return Promise.reject(this.broken);
    }
    const seq = ++this.seq;
    const committed = new Promise<void>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.worker.postMessage({ seq, changes: flat });
    });
    this.tail = committed.catch(() => undefined);
    return committed;
  }

  close(): Promise<void> {
    this.closing ??= this.drainAndStop();
    return this.closing;
  }

  private async drainAndStop(): Promise<void> {
    await this.tail;
    this.worker.postMessage({ close: true });
    await this.exited;
  }

  private flatten(changes: DocChange[]): (string | null)[] {
    const flat: (string | null)[] = [];
    for (const change of changes) {
      const table = this.options.tableOf(change.collection);
      if ('put' in change) {
        const id = change.put.id;
        if (typeof id !== 'string' || id.length === 0 || id.length > this.options.maxIdLength) {
          throw new InvalidQueryError(
            `document id must be 1-${this.options.maxIdLength} characters`,
          );
        }
        flat.push(table, id, JSON.stringify(change.put));
      } else {
        flat.push(table, change.delete, null);
      }
    }
    return flat;
  }

  private settle(reply: Reply): void {
    const waiter = this.waiting.get(reply.seq);
    if (!waiter) return;
    this.waiting.delete(reply.seq);
    if (reply.error === undefined) return waiter.resolve();
    this.broken ??= new Error(`bulk write failed: ${reply.error}`);
    waiter.reject(new Error(`bulk write failed: ${reply.error}`));
  }

  private fail(error: Error): void {
    this.broken ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
