import type { EventMetadata } from '../event-metadata.js';
import type { EventData, ExpectedRevision, NewEvent, RecordedEvent } from '../event-store.port.js';
import { WrongExpectedRevisionError } from '../wrong-expected-revision.error.js';

/**
 * Pure conversions between the EventStore port and the EventStoreDB/KurrentDB gRPC client, kept
 * apart from the client so they are tested without a server. The shapes below are the client's,
 * restated structurally: `@eventstore/db-client` and `@kurrent/kurrentdb-client` share them.
 */

/** The client's expected-revision constants are these strings (`NO_STREAM`, `STREAM_EXISTS`, `ANY`). */
export type ClientExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | bigint;

export interface ClientPosition {
  commit: bigint;
  prepare: bigint;
}

export interface ClientRecordedEvent {
  streamId: string;
  id: string;
  isJson: boolean;
  revision: bigint;
  type: string;
  created: Date;
  data: unknown;
  metadata: unknown;
  position?: ClientPosition;
}

export interface ClientResolvedEvent {
  event?: ClientRecordedEvent;
  commitPosition?: bigint;
}

/** What the adapter writes as an event's metadata: the port's metadata plus two reserved keys. */
export interface StoredMetadata extends EventMetadata {
  $schemaVersion: number;
  /** Set by the migration command: the time the embedded store recorded the event. */
  $recordedAt?: string;
}

/** The server answers a position of 2^64-1 where it has none (reads of one stream on old servers). */
export const NO_POSITION = 0xffff_ffff_ffff_ffffn;

export function toClientExpectedRevision(expected: ExpectedRevision): ClientExpectedRevision {
  if (typeof expected === 'bigint') {
    if (expected < 0n) throw new RangeError(`expected revision ${expected} is negative`);
    return expected;
  }
  return expected;
}

export function toStoredEvent(
  event: NewEvent,
  id: string,
): { id: string; type: string; data: EventData; metadata: StoredMetadata } {
  return {
    id,
    type: event.type,
    data: event.data,
    metadata: {
      ...event.metadata,
      $schemaVersion: event.schemaVersion,
      ...(event.recordedAt ? { $recordedAt: event.recordedAt } : {}),
    },
  };
}

/** A system event (`$`-prefixed type or stream: stats, settings, scavenges) is not the application's. */
export function isSystemEvent(event: ClientRecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/** The global position of a recorded event: its commit position, or 0n when the server gave none. */
export function positionOf(resolved: ClientResolvedEvent): bigint {
  const commit = resolved.event?.position?.commit ?? resolved.commitPosition;
  return commit === undefined || commit === NO_POSITION ? 0n : commit;
}

export function toRecordedEvent(resolved: ClientResolvedEvent): RecordedEvent {
  const event = resolved.event;
  if (!event) throw new Error('a resolved event without its event (a link to a deleted event?)');
  if (!event.isJson) throw new Error(`event ${event.id} is not JSON`);
  const stored = event.metadata as Partial<StoredMetadata> | undefined;
  if (!stored || typeof stored.$schemaVersion !== 'number') {
    throw new Error(`event ${event.id} (${event.type}) was not written by Slipway`);
  }
  const { $schemaVersion, $recordedAt, ...metadata } = stored as StoredMetadata;
  return {
    id: event.id,
    type: event.type,
    schemaVersion: $schemaVersion,
    stream: event.streamId,
    revision: event.revision,
    position: positionOf(resolved),
    recordedAt: $recordedAt ?? event.created.toISOString(),
    data: event.data as EventData,
    metadata,
  };
}

/**
 * Positions are sparse commit positions, and reading `$all` from a position that is not the
 * start of a record is an error on the server. Callers ask for events at or after `from`,
 * usually as "the last position I have + 1", so the adapter reads from `from - 1` (a record
 * boundary in that case) and then from `from` itself, dropping events before `from`.
 */
export function readAllStarts(from: bigint): Array<ClientPosition | 'start'> {
  if (from <= 1n) return ['start'];
  const at = (p: bigint): ClientPosition => ({ commit: p, prepare: p });
  return [at(from - 1n), at(from)];
}

/** Structural view of the client's error classes (`type` is its `ErrorType`). */
export interface ClientError {
  type?: string;
  streamName?: string;
  expectedVersion?: unknown;
  actualVersion?: unknown;
  message?: string;
}

const UNAVAILABLE = new Set(['unavailable', 'deadline-exceeded', 'timeout', 'not-leader']);

/** A failure to reach the server (retry later), as opposed to an answer. */
export function isUnavailable(error: unknown): boolean {
  const type = (error as ClientError | null)?.type;
  return typeof type === 'string' && UNAVAILABLE.has(type);
}

export function isInvalidPosition(error: unknown): boolean {
  const e = error as ClientError | null;
  return (
    e?.type === 'invalid-argument' ||
    /invalid position|position .* (is )?(invalid|out of range)|too large length/i.test(
      e?.message ?? '',
    )
  );
}

export function isStreamNotFound(error: unknown): boolean {
  return (error as ClientError | null)?.type === 'stream-not-found';
}

/** The port's CONFLICT for a wrong expected version; any other error unchanged. */
export function translateAppendError(
  error: unknown,
  stream: string,
  expected: ExpectedRevision,
): unknown {
  const e = error as ClientError | null;
  if (e?.type !== 'wrong-expected-version') return error;
  const actual = typeof e.actualVersion === 'bigint' ? e.actualVersion : 'no_stream';
  return new WrongExpectedRevisionError(stream, expected, actual);
}

/** Exponential backoff with a ceiling: 250 ms, 500 ms, 1 s ... 30 s. */
export function backoffMs(attempt: number, baseMs = 250, maxMs = 30_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempt, 20)));
}
