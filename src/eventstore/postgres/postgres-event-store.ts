import { EventEmitter } from 'node:events';
import pg from 'pg';
import { systemClock, type Clock } from '../../common/clock.js';
import { expectationHolds, validateAppend, validateReadLimit } from '../append-validation.js';
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
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
} from '../wrong-expected-revision.error.js';
import { createIfMissing } from '../../readstore/postgres/idempotent-ddl.js';
import { checkOut, openPool } from '../../readstore/postgres/postgres-connection.js';
import {
  isConnectionError,
  isUniqueViolation,
  rollback,
} from '../../readstore/postgres/postgres-errors.js';
import { ChannelListener } from './channel-listener.js';
import { EventColumns, SELECT_COLUMNS, toRecorded, type EventRow } from './event-rows.js';
import {
  APPEND_LOCK_KEY,
  APPENDED_CHANNEL,
  POSTGRES_EVENT_STORE_SCHEMA,
} from './postgres-event-store.schema.js';

export interface PostgresEventStoreOptions {
  clock?: Clock;
  /** How often an idle subscription reads anyway, in case a notification was missed (1,000 ms). */
  pollIntervalMs?: number;
  /** Connections in the pool (5): appends take one at a time, reads the rest. */
  maxConnections?: number;
}

interface QueuedAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

/**
 * The event log in PostgreSQL (`SLIPWAY_POSTGRES_URL`), shared by every replica. Appends take
 * one advisory lock for their transaction (see APPEND_LOCK_KEY), so positions are dense and
 * commit in order: a subscriber never skips an event that commits later with a lower position.
 * Appends made in the same turn of the event loop share one transaction (group commit), each
 * checked against its own expected revision. A commit notifies the other processes
 * (`LISTEN`/`NOTIFY`); subscriptions poll too, for a notification lost while reconnecting.
 */
export class PostgresEventStore implements EventStore {
  readonly positions = 'dense';
  private readonly appended = new EventEmitter();
  private readonly clock: Clock;
  private readonly subscriptions: CatchUpSubscriptions;
  private queued: QueuedAppend[] = [];
  private flushing: Promise<void> | null = null;
  /** The newest position this process has announced: its own commits, or one it was told of. */
  private knownHead = 0n;
  private reachable = true;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly listener: ChannelListener,
    options: PostgresEventStoreOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.subscriptions = new CatchUpSubscriptions(
      {
        readAll: (from, limit) => this.readAll(from, limit),
        onAppended: (listener) => this.onAppended(listener),
      },
      options.pollIntervalMs ?? 1000,
    );
    this.appended.setMaxListeners(0);
    listener.onMessage((payload) => this.heardOf(payload));
  }

  /** Connects, creates the table when missing, and starts listening for other processes' appends. */
  static async connect(
    url: string,
    options: PostgresEventStoreOptions = {},
  ): Promise<PostgresEventStore> {
    const pool = openPool(url, options.maxConnections ?? 5);
    try {
      await createIfMissing(pool, POSTGRES_EVENT_STORE_SCHEMA);
    } catch (error) {
      await pool.end();
      throw error;
    }
    const listener = new ChannelListener(url, APPENDED_CHANNEL);
    await listener.start();
    return new PostgresEventStore(pool, listener, options);
  }

  /** `ready`, or `unavailable` while the server cannot be reached (the pool reconnects). */
  get connectionState(): string {
    return this.reachable && this.listener.listening ? 'ready' : 'unavailable';
  }

  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    try {
      validateAppend(stream, events, expected);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queued.push({ stream, events, expected, resolve, reject });
      this.flushing ??= this.flushQueue();
    });
  }

  /** Writes what is queued, batch after batch, until nothing is; one batch per transaction. */
  private async flushQueue(): Promise<void> {
    // What the rest of this turn appends joins the batch.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.queued.length > 0) {
        const batch = this.queued;
        this.queued = [];
        await this.writeBatch(batch);
      }
    } finally {
      this.flushing = null;
    }
  }

  private async writeBatch(batch: QueuedAppend[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.transaction(batch);
    } catch (error) {
      if (isUniqueViolation(error) && batch.length > 1) {
        // An event id already recorded sinks the whole batch: each append on its own, so that
        // only the one holding it is refused.
        for (const item of batch) await this.writeBatch([item]);
        return;
      }
      const failure = isUniqueViolation(error) ? translateUniqueViolation(error) : error;
      for (const item of batch) item.reject(failure);
      return;
    }
    const heads = outcomes.flatMap((o) => (o.ok ? [o.result.lastPosition] : []));
    if (heads.length > 0) this.announce(heads.reduce((a, b) => (b > a ? b : a)));
    outcomes.forEach((outcome, i) => {
      if (outcome.ok) batch[i].resolve(outcome.result);
      else batch[i].reject(outcome.error);
    });
  }

  /** One transaction under the append lock: every append whose expectation holds is written. */
  private async transaction(batch: QueuedAppend[]): Promise<Outcome[]> {
    const client = await this.connected();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK_KEY]);
      const { rows: headRows } = await client.query<{ head: string }>(
        'SELECT coalesce(max(position), 0)::text AS head FROM slipway_events',
      );
      const head = BigInt(headRows[0].head);
      const revisions = await this.streamRevisions(
        client,
        batch.map((b) => b.stream),
      );
      const columns = new EventColumns();
      const recordedAt = this.clock.now().toISOString();
      let position = head;
      const outcomes = batch.map(({ stream, events, expected }): Outcome => {
        const current = revisions.get(stream) ?? null;
        if (!expectationHolds(expected, current)) {
          return {
            ok: false,
            error: new WrongExpectedRevisionError(stream, expected, current ?? 'no_stream'),
          };
        }
        const firstPosition = position + 1n;
        let revision = current ?? -1n;
        for (const event of events) {
          revision += 1n;
          position += 1n;
          columns.add(position, stream, revision, event, recordedAt);
        }
        revisions.set(stream, revision);
        return {
          ok: true,
          result: { nextExpectedRevision: revision, firstPosition, lastPosition: position },
        };
      });
      if (position > head) {
        await client.query(
          `INSERT INTO slipway_events (${SELECT_COLUMNS})
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[],
                                $6::integer[], $7::text[], $8::text[], $9::text[])`,
          columns.values(),
        );
        await client.query('SELECT pg_notify($1, $2)', [APPENDED_CHANNEL, position.toString()]);
      }
      await client.query('COMMIT');
      return outcomes;
    } catch (error) {
      broken = await rollback(client, error);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private async streamRevisions(
    client: pg.PoolClient,
    streams: string[],
  ): Promise<Map<string, bigint | null>> {
    const { rows } = await client.query<{ stream: string; revision: string }>(
      `SELECT stream, max(revision)::text AS revision FROM slipway_events
       WHERE stream = ANY($1::text[]) GROUP BY stream`,
      [[...new Set(streams)]],
    );
    return new Map(rows.map((r) => [r.stream, BigInt(r.revision)]));
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.query<EventRow>(
      `SELECT ${SELECT_COLUMNS} FROM slipway_events WHERE stream = $1 AND revision >= $2
       ORDER BY revision LIMIT $3`,
      [stream, (options.fromRevision ?? 0n).toString(), options.limit ?? null],
    );
    return rows.map(toRecorded);
  }

  async readAll(fromPosition: bigint, limit: number): Promise<RecordedEvent[]> {
    validateReadLimit(limit);
    const { rows } = await this.query<EventRow>(
      `SELECT ${SELECT_COLUMNS} FROM slipway_events WHERE position >= $1
       ORDER BY position LIMIT $2`,
      [fromPosition.toString(), limit],
    );
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    const { rows } = await this.query<{ head: string }>(
      'SELECT coalesce(max(position), 0)::text AS head FROM slipway_events',
    );
    return BigInt(rows[0].head);
  }

  subscribe(
    fromPosition: bigint,
    handler: EventHandler,
    onError?: (error: unknown) => void,
  ): Subscription {
    return this.subscriptions.subscribe(fromPosition, handler, onError);
  }

  /** At once after this process's own commits; after another's, when its notification arrives. */
  onAppended(listener: () => void): () => void {
    this.appended.on('appended', listener);
    return () => this.appended.off('appended', listener);
  }

  async isReady(): Promise<boolean> {
    try {
      await this.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.flushing;
    await this.subscriptions.stopAll();
    await this.listener.stop();
    await this.pool.end();
  }

  /**
   * Another process committed up to `payload`: only news wakes the subscriptions. An empty
   * payload (listening again after a break) wakes them anyway: they may have missed some.
   */
  private heardOf(payload: string): void {
    if (payload === '') this.appended.emit('appended');
    else if (/^\d{1,19}$/.test(payload)) this.announce(BigInt(payload));
  }

  private announce(head: bigint): void {
    if (head <= this.knownHead) return;
    this.knownHead = head;
    this.appended.emit('appended');
  }

  private async connected(): Promise<pg.PoolClient> {
    try {
      const client = await checkOut(this.pool);
      this.reachable = true;
      return client;
    } catch (error) {
      this.reachable = false;
      throw error;
    }
  }

  private async query<R extends pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    const client = await this.connected();
    let broken: Error | undefined;
    try {
      return await client.query<R>(text, values);
    } catch (error) {
      broken = isConnectionError(error) ? (error as Error) : undefined;
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/** Only an event id can collide: positions and revisions are taken under the append lock. */
function translateUniqueViolation(error: unknown): unknown {
  const constraint = (error as { constraint?: unknown }).constraint;
  return constraint === 'slipway_events_id_key' ? new DuplicateEventIdError() : error;
}
