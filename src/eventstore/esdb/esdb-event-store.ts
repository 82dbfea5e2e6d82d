import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  START,
  type AllStreamResolvedEvent,
  type Position,
} from '@eventstore/db-client';
import { validateAppend, validateReadLimit } from '../append-validation.js';
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
  backoffMs,
  isInvalidPosition,
  isStreamNotFound,
  isSystemEvent,
  isUnavailable,
  positionOf,
  readAllStarts,
  toClientExpectedRevision,
  toRecordedEvent,
  toStoredEvent,
  translateAppendError,
  type ClientResolvedEvent,
} from './esdb-mapping.js';

/**
 * The EventStore port on EventStoreDB/KurrentDB through the official gRPC client. This is the
 * only file that imports the client: moving to `@kurrent/kurrentdb-client` changes the import
 * and the class name below. Conversions live in esdb-mapping.ts (tested without a server).
 */
export type EsdbReadiness = 'connecting' | 'ready' | 'unavailable';

const READ_ATTEMPTS = 6;

export class EsdbEventStore implements EventStore {
  /** Commit positions: byte offsets in the server's log. */
  readonly positions = 'sparse';
  private readonly client: EventStoreDBClient;
  private state: EsdbReadiness = 'connecting';
  private lastError: string | null = null;
  private closed = false;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  /** `connecting` until the first answer, `unavailable` after a failed call, else `ready`. */
  get connectionState(): EsdbReadiness {
    return this.state;
  }

  /** The last connection failure, for the log (not for health: it may name hosts). */
  get lastConnectionError(): string | null {
    return this.lastError;
  }

  async append(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    validateAppend(stream, events, expected);
    const payload = events.map((e) => jsonEvent(toStoredEvent(e, e.id ?? randomUUID())));
    let result;
    try {
      result = await this.client.appendToStream(stream, payload, {
        expectedRevision: toClientExpectedRevision(expected),
      });
      this.markReady();
    } catch (error) {
      this.markFailure(error);
      throw translateAppendError(error, stream, expected);
    }
    const lastPosition = result.position?.commit ?? (await this.headPosition());
    const firstPosition =
      events.length === 1 ? lastPosition : await this.firstOfLast(events.length, lastPosition);
    return { nextExpectedRevision: result.nextExpectedRevision, firstPosition, lastPosition };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.limit !== undefined) validateReadLimit(options.limit);
    return this.withRetry(async () => {
      const out: RecordedEvent[] = [];
      try {
        const read = this.client.readStream(stream, {
          fromRevision: options.fromRevision ?? START,
          direction: FORWARDS,
          ...(options.limit !== undefined ? { maxCount: options.limit } : {}),
        });
        for await (const resolved of read)
          out.push(toRecordedEvent(resolved as ClientResolvedEvent));
      } catch (error) {
        if (isStreamNotFound(error)) return [];
        throw error;
      }
      return out;
    });
  }

  /**
   * Application events at or after `fromPosition`: system events are skipped, and the read goes
   * on until `limit` application events are found or the log ends.
   */
  async readAll(fromPosition: bigint, limit: number): Promise<RecordedEvent[]> {
    validateReadLimit(limit);
    return this.withRetry(async () => {
      const out: RecordedEvent[] = [];
      const seen = new Set<bigint>();
      let start = await this.firstReadablePosition(fromPosition);
      for (;;) {
        const raw = await this.readRaw(start, limit + 1);
        let last: bigint | null = null;
        for (const resolved of raw) {
          last = positionOf(resolved);
          if (!resolved.event || isSystemEvent(resolved.event) || last < fromPosition) continue;
          if (seen.has(last)) continue;
          seen.add(last);
          out.push(toRecordedEvent(resolved));
          if (out.length === limit) return out;
        }
        if (raw.length < limit + 1 || last === null) return out;
        start = { commit: last, prepare: raw[raw.length - 1].event?.position?.prepare ?? last };
      }
    });
  }

  async headPosition(): Promise<bigint> {
    return this.withRetry(async () => {
      for await (const resolved of this.client.readAll({
        fromPosition: END,
        direction: BACKWARDS,
        maxCount: 50,
      })) {
        if (resolved.event && !isSystemEvent(resolved.event)) return positionOf(resolved);
      }
      return 0n;
    });
  }

  /**
   * Catch-up, then live: reads from `fromPosition` to the end, then subscribes to `$all` after
   * the last delivered event (an exact record position), without system events. Events the
   * catch-up already delivered are skipped by position.
   */
  subscribe(
    fromPosition: bigint,
    handler: EventHandler,
    onError: (error: unknown) => void = () => undefined,
  ): Subscription {
    let stopped = false;
    let live: { unsubscribe(): Promise<void> } | null = null;
    let delivered: { commit: bigint; prepare: bigint } | null = null;
    const run = async () => {
      let next = fromPosition;
      for (;;) {
        const batch = await this.readAll(next, 500);
        for (const event of batch) {
          if (stopped) return;
          await handler(event);
          delivered = { commit: event.position, prepare: event.position };
          next = event.position + 1n;
        }
        if (batch.length < 500) break;
      }
      if (stopped) return;
      const subscription = this.client.subscribeToAll({
        fromPosition: (delivered as Position | null) ?? START,
        filter: excludeSystemEvents(),
      });
      live = subscription;
      for await (const resolved of subscription) {
        if (stopped) return;
        const position = positionOf(resolved as ClientResolvedEvent);
        if (position < next) continue;
        await handler(toRecordedEvent(resolved as ClientResolvedEvent));
        next = position + 1n;
      }
    };
    const done = run().catch((error: unknown) => {
      if (!stopped) onError(error);
    });
    return {
      stop: async () => {
        stopped = true;
        const current = live as { unsubscribe(): Promise<void> } | null;
        if (current) await current.unsubscribe().catch(() => undefined);
        await done;
      },
    };
  }

  async isReady(): Promise<boolean> {
    try {
      for await (const _ of this.client.readAll({ fromPosition: START, maxCount: 1 })) break;
      this.markReady();
      return true;
    } catch (error) {
      this.markFailure(error);
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client.dispose();
  }

  private async readRaw(
    from: Position | 'start',
    maxCount: number,
  ): Promise<AllStreamResolvedEvent[]> {
    const out: AllStreamResolvedEvent[] = [];
    for await (const resolved of this.client.readAll({
      fromPosition: from === 'start' ? START : from,
      direction: FORWARDS,
      maxCount,
    })) {
      out.push(resolved);
    }
    return out;
  }

  /** The first of `readAllStarts(from)` that the server accepts as a record boundary. */
  private async firstReadablePosition(from: bigint): Promise<Position | 'start'> {
    const candidates = readAllStarts(from);
    for (const [i, candidate] of candidates.entries()) {
      try {
        await this.readRaw(candidate, 1);
        return candidate;
      } catch (error) {
        if (!isInvalidPosition(error) || i === candidates.length - 1) throw error;
      }
    }
    return 'start';
  }

  /** The position of the first of the last `count` events, read backwards from `last`. */
  private async firstOfLast(count: number, last: bigint): Promise<bigint> {
    let first = last;
    let seen = 0;
    for await (const resolved of this.client.readAll({
      fromPosition: { commit: last, prepare: last },
      direction: BACKWARDS,
      maxCount: count + 10,
    })) {
      if (!resolved.event || isSystemEvent(resolved.event)) continue;
      const p = positionOf(resolved);
      if (p > last) continue;
      first = p;
      seen += 1;
      if (seen === count) break;
    }
    return first;
  }

  /** Reads are retried with backoff while the server is unreachable (a restart, a failover). */
  private async withRetry<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = await read();
        this.markReady();
        return result;
      } catch (error) {
        this.markFailure(error);
        if (!isUnavailable(error) || attempt + 1 >= READ_ATTEMPTS || this.closed) throw error;
        await sleep(backoffMs(attempt));
      }
    }
  }

  private markReady(): void {
    this.state = 'ready';
    this.lastError = null;
  }

  private markFailure(error: unknown): void {
    if (!isUnavailable(error)) return;
    this.state = 'unavailable';
    this.lastError = error instanceof Error ? error.message : String(error);
  }
}
