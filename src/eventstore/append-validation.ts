import type { ExpectedRevision, NewEvent } from './event-store.port.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A time as `Date.prototype.toISOString` writes it, the form every adapter records. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MAX_STREAM_NAME = 256;
export const MAX_EVENTS_PER_APPEND = 10_000;
export const MAX_READ_LIMIT = 10_000;

/** Programming errors, not user input: adapters refuse them before touching storage. */
export class InvalidAppendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAppendError';
  }
}

export function validateAppend(
  stream: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): void {
  if (typeof stream !== 'string' || stream.length === 0 || stream.length > MAX_STREAM_NAME) {
    throw new InvalidAppendError(`stream name must be 1-${MAX_STREAM_NAME} characters`);
  }
  if (!Array.isArray(events) || events.length === 0 || events.length > MAX_EVENTS_PER_APPEND) {
    throw new InvalidAppendError(`an append holds 1-${MAX_EVENTS_PER_APPEND} events`);
  }
  if (typeof expected === 'bigint' ? expected < 0n : !isNamedExpectation(expected)) {
    throw new InvalidAppendError(`invalid expected revision ${String(expected)}`);
  }
  for (const event of events) {
    if (typeof event.type !== 'string' || event.type.length === 0 || event.type.length > 128) {
      throw new InvalidAppendError('event type must be 1-128 characters');
    }
    if (!Number.isInteger(event.schemaVersion) || event.schemaVersion < 1) {
      throw new InvalidAppendError(`event ${event.type} needs a positive integer schemaVersion`);
    }
    if (event.id !== undefined && !UUID.test(event.id)) {
      throw new InvalidAppendError(`event id ${event.id} is not a UUID`);
    }
    if (event.data === null || typeof event.data !== 'object' || Array.isArray(event.data)) {
      throw new InvalidAppendError(`event ${event.type} data must be an object`);
    }
    if (event.metadata === null || typeof event.metadata !== 'object') {
      throw new InvalidAppendError(`event ${event.type} needs metadata`);
    }
    if (
      event.recordedAt !== undefined &&
      (typeof event.recordedAt !== 'string' ||
        !ISO_TIME.test(event.recordedAt) ||
        Number.isNaN(Date.parse(event.recordedAt)))
    ) {
      throw new InvalidAppendError(`event ${event.type} has a recordedAt that is not an ISO time`);
    }
  }
}

export function validateReadLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_READ_LIMIT) {
    throw new InvalidAppendError(`read limit must be an integer 1-${MAX_READ_LIMIT}`);
  }
}

function isNamedExpectation(value: unknown): boolean {
  return value === 'no_stream' || value === 'stream_exists' || value === 'any';
}

/** Whether a stream at `current` (its last revision; null: no stream) meets `expected`. */
export function expectationHolds(expected: ExpectedRevision, current: bigint | null): boolean {
  return (
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    (typeof expected === 'bigint' && current === expected)
  );
}
