import { describe, expect, it } from '@jest/globals';
import { toAppError } from '../kernel/app-error-of.js';
import { isStoreUnreachable } from './unreachable-store.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('a store that cannot be reached', () => {
  it('is told by socket codes, PostgreSQL connection classes and the driver’s timeouts', () => {
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('EHOSTUNREACH'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      new Error('Query read timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
    ])
      expect(isStoreUnreachable(error)).toBe(true);
  });

  it('is not a statement the server refused, nor a bug', () => {
    for (const error of [
      withCode('23505', 'duplicate key value'),
      withCode('40001', 'could not serialize access'),
      new TypeError('Cannot read properties of undefined'),
      'a string',
      null,
    ])
      expect(isStoreUnreachable(error)).toBe(false);
  });

  it('is answered SERVICE_UNAVAILABLE, not as an unexpected error', () => {
    const answered = toAppError(
      withCode('EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.5:5432'),
      'r1',
    );
    expect(answered.code).toBe('SERVICE_UNAVAILABLE');
    expect(answered.message).not.toContain('10.0.0.5');
    expect(toAppError(new TypeError('boom'), 'r2').code).toBe('INTERNAL_SERVER_ERROR');
  });
});
