import { AppError } from '../common/app-error.js';
import type { ExpectedRevision } from './event-store.port.js';

/** The stream did not match what the writer expected: someone else wrote first. */
export class WrongExpectedRevisionError extends AppError {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super('CONFLICT', `Stream ${stream} changed concurrently; retry the command`, {
      stream,
      expectedRevision: String(expected),
      actualRevision: String(actual),
    });
    this.name = 'WrongExpectedRevisionError';
  }
}

/** An event id that the store already holds: the same event cannot be recorded twice. */
export class DuplicateEventIdError extends AppError {
  constructor() {
    super('CONFLICT', 'An event with this id was already recorded');
    this.name = 'DuplicateEventIdError';
  }
}
