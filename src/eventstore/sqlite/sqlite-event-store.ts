import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import Database from 'better-sqlite3';
import { systemClock, type Clock } from '../../common/clock.js';
import { FileChangeSignal } from '../../common/file-change-signal.js';
import { CatchUpSubscriptions } from '../catch-up-subscription.js';
import type {
  AppendResult,
  EventHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadStreamOptions,
  RecordedEvent,
  Subscription,
} from '../event-store.port.js';
import type { EventMetadata } from '../event-metadata.js';
import { expectationHolds, validateAppend, validateReadLimit } from '../append-validation.js';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
} from '../wrong-expected-revision.error.js';
import { EVENT_STORE_SCHEMA } from './sqlite-event-store.schema.js';

export interface SqliteEventStoreOptions {
  clock?: Clock;
  /**
   * How often an idle subscription looks for appends made by other processes: 2,000 ms while
   * the file's change notifications wake it (see FileChangeSignal), 250 ms without them.
   */
  pollIntervalMs?: number;
  /** Listen for other processes' appends through change notifications (default true). */
  watch?: boolean;
}

interface QueuedAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

interface EventRow {
  position: bigint;
  id: string;
  stream: string;
  revision: bigint;
  type: string;
  schema_version: bigint;
  recorded_at: string;
  data: string;
  metadata: string;
}

const SELECT_COLUMNS =
  'position, id, stream, revision, type, schema_version, recorded_at, data, metadata';

/** Embedded event store: one SQLite file, WAL journal, fsync on every commit (group commit). */
export class SqliteEventStore implements EventStore {
  /** Each append takes the next integer positions in its transaction: no gaps. */
  readonly positions = 'dense';
  private readonly db: Database.Database;
  private readonly appended = new EventEmitter();
  private readonly clock: Clock;
  private readonly fileChanges: FileChangeSignal;
  private readonly stopWatching: () => void;
  /** The newest position this process has announced: its own commits, or one read after a change. */
  private knownHead = 0n;
  private readonly pollIntervalMs: number;
  private readonly subscriptions: CatchUpSubscriptions;
  private readonly statements;
  private readonly appendTransaction: Database.Transaction<
    (stream: string, events: NewEvent[], expected: ExpectedRevision) => AppendResult
  >;
  private readonly groupTransaction: Database.Transaction<(batch: QueuedAppend[]) => Outcome[]>;
  private queued: QueuedAppend[] = [];
  private commits = 0;

  constructor(file: string, options: SqliteEventStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.appended.setMaxListeners(0);
    this.db = new Database(file);
    // WAL + synchronous=FULL: a commit returns only after the WAL is fsynced,
    // so an acknowledged append survives a crash of the process or the machine.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 10000');
    this.db.exec(EVENT_STORE_SCHEMA);
    // Appends by other processes sharing the file wake this one's subscriptions too. Listened
    // to once in WAL mode with the schema written, so that the journal exists and is watched
    // rather than the whole directory (see FileChangeSignal).
    this.fileChanges = new FileChangeSignal(file);
    this.stopWatching =
      options.watch === false
        ? () => undefined
        : this.fileChanges.listen(() => this.changedOnDisk());
    this.pollIntervalMs = options.pollIntervalMs ?? (this.fileChanges.watching ? 2000 : 250);
    this.subscriptions = new CatchUpSubscriptions(
      {
        readAll: (from, limit) => this.readAll(from, limit),
        onAppended: (listener) => this.onAppended(listener),
      },
      this.pollIntervalMs,
    );
    this.db.defaultSafeIntegers(true);
    this.statements = {
      streamRevision: this.db.prepare<[string], { revision: bigint | null }>(
        'SELECT MAX(revision) AS revision FROM events WHERE stream = ?',
      ),
      head: this.db.prepare<[], { position: bigint | null }>(
        'SELECT MAX(position) AS position FROM events',
      ),
      insert: this.db.prepare(
        `INSERT INTO events (${SELECT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      readStream: this.db.prepare<[string, bigint, bigint], EventRow>(
        `SELECT ${SELECT_COLUMNS} FROM events WHERE stream = ? AND revision >= ?
         ORDER BY revision LIMIT ?`,
      ),
      readAll: this.db.prepare<[bigint, number], EventRow>(
        `SELECT ${SELECT_COLUMNS} FROM events WHERE position >= ? ORDER BY position LIMIT ?`,
      ),
    };
    this.appendTransaction = this.db.transaction((stream, events, expected) =>
      this.writeEvents(stream, events, expected),
    );
    // Each append runs in its own savepoint (a nested transaction), so one that fails its
    // expected-revision check rolls back alone; the rest commit together, with one fsync.
    this.groupTransaction = this.db.transaction((batch) =>
      batch.map(({ stream, events, expected }): Outcome => {
        try {
          return { ok: true, result: this.appendTransaction(stream, events, expected) };
        } catch (error) {
          return { ok: false, error: translateSqliteError(error) };
        }
      }),
    );
  }

  /**
   * Group commit: appends made in the same turn of the event loop are written by one
   * transaction at the next turn, each checked against its own expected revision. Every one
   * is acknowledged only after that transaction's COMMIT, so after its fsync.
   */
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    try {
      validateAppend(stream, events, expected);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queued.push({ stream, events, expected, resolve, reject });
      if (this.queued.length === 1) setImmediate(() => this.flush());
    });
  }

  /** How many write transactions this store has committed (group commit makes it < appends). */
  get committedTransactions(): number {
    return this.commits;
  }

  private flush(): void {
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.groupTransaction.immediate(batch);
      this.commits += 1;
    } catch (error) {
      const failure = translateSqliteError(error);
      for (const item of batch) item.reject(failure);
      return;
    }
    const heads = outcomes.flatMap((o) => (o.ok ? [o.result.lastPosition] : []));
    if (heads.length > 0) {
      this.knownHead = heads.reduce((a, b) => (b > a ? b : a), this.knownHead);
      this.appended.emit('appended');
    }
    outcomes.forEach((outcome, i) => {
      if (outcome.ok) batch[i].resolve(outcome.result);
      else batch[i].reject(outcome.error);
    });
  }

  readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0n;
    const limit = BigInt(options.limit ?? Number.MAX_SAFE_INTEGER);
    return Promise.resolve(this.statements.readStream.all(stream, from, limit).map(toRecorded));
  }

  readAll(fromPosition: bigint, limit: number): Promise<RecordedEvent[]> {
    validateReadLimit(limit);
    return Promise.resolve(this.statements.readAll.all(fromPosition, limit).map(toRecorded));
  }

  headPosition(): Promise<bigint> {
    return Promise.resolve(this.statements.head.get()?.position ?? 0n);
  }

  subscribe(
    fromPosition: bigint,
    handler: EventHandler,
    onError?: (error: unknown) => void,
  ): Subscription {
    return this.subscriptions.subscribe(fromPosition, handler, onError);
  }

  /**
   * The file changed: another process appended, or this one's own commit (already announced) or
   * a checkpoint is heard. Only a head beyond the one announced wakes the listeners, so a local
   * append does not make every subscription read again.
   */
  private changedOnDisk(): void {
    if (!this.db.open) return;
    const head = this.statements.head.get()?.position ?? 0n;
    if (head <= this.knownHead) return;
    this.knownHead = head;
    this.appended.emit('appended');
  }

  /**
   * Calls `listener` after appends: at once after this process's own commits, and within a few
   * milliseconds of another process's (while change notifications work; see FileChangeSignal).
   */
  onAppended(listener: () => void): () => void {
    this.appended.on('appended', listener);
    return () => this.appended.off('appended', listener);
  }

  isReady(): Promise<boolean> {
    try {
      this.statements.head.get();
      return Promise.resolve(true);
    } catch {
      return Promise.resolve(false);
    }
  }

  async close(): Promise<void> {
    this.stopWatching();
    if (this.db.open) this.flush();
    await this.subscriptions.stopAll();
    if (this.db.open) this.db.close();
  }

  private writeEvents(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): AppendResult {
    const current = this.statements.streamRevision.get(stream)?.revision ?? null;
    checkExpected(stream, expected, current);
    const head = this.statements.head.get()?.position ?? 0n;
    const recordedAt = this.clock.now().toISOString();
    let revision = current ?? -1n;
    let position = head;
    for (const event of events) {
      revision += 1n;
      position += 1n;
      this.statements.insert.run(
        position,
        event.id ?? randomUUID(),
        stream,
        revision,
        event.type,
        event.schemaVersion,
        event.recordedAt ?? recordedAt,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
      );
    }
    return { nextExpectedRevision: revision, firstPosition: head + 1n, lastPosition: position };
  }
}

function checkExpected(stream: string, expected: ExpectedRevision, current: bigint | null): void {
  if (!expectationHolds(expected, current)) {
    throw new WrongExpectedRevisionError(stream, expected, current ?? 'no_stream');
  }
}

/** Duck-typed: errors from the native addon may come from another realm (e.g. Jest's VM). */
function translateSqliteError(error: unknown): unknown {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const duplicateId =
    code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    typeof message === 'string' &&
    message.includes('events.id');
  return duplicateId ? new DuplicateEventIdError() : error;
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    schemaVersion: Number(row.schema_version),
    stream: row.stream,
    revision: row.revision,
    position: row.position,
    recordedAt: row.recorded_at,
    data: JSON.parse(row.data) as RecordedEvent['data'],
    metadata: JSON.parse(row.metadata) as EventMetadata,
  };
}
