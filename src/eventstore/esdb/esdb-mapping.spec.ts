import { describe, expect, it } from '@jest/globals';
import { testEvent, testMetadata } from '../testing/test-events.js';
import { WrongExpectedRevisionError } from '../wrong-expected-revision.error.js';
import {
  backoffMs,
  isInvalidPosition,
  isSystemEvent,
  isUnavailable,
  NO_POSITION,
  positionOf,
  readAllStarts,
  toClientExpectedRevision,
  toRecordedEvent,
  toStoredEvent,
  translateAppendError,
  type ClientRecordedEvent,
} from './esdb-mapping.js';

const recorded = (over: Partial<ClientRecordedEvent> = {}): ClientRecordedEvent => ({
  streamId: 'service-1',
  id: '0b0d6a4e-5a55-4f0e-9c1e-2b3a4c5d6e7f',
  isJson: true,
  revision: 3n,
  type: 'ServiceRegistered',
  created: new Date('2026-11-23T10:00:00.000Z'),
  data: { name: 'web' },
  metadata: { ...testMetadata, $schemaVersion: 2 },
  position: { commit: 9_007_199_254_740_993n, prepare: 9_007_199_254_740_993n },
  ...over,
});

describe('EventStoreDB mapping', () => {
  it('maps expected revisions onto the client constants and revisions unchanged', () => {
    expect(toClientExpectedRevision('no_stream')).toBe('no_stream');
    expect(toClientExpectedRevision('stream_exists')).toBe('stream_exists');
    expect(toClientExpectedRevision('any')).toBe('any');
    expect(toClientExpectedRevision(0n)).toBe(0n);
    expect(toClientExpectedRevision(2n ** 63n - 1n)).toBe(2n ** 63n - 1n);
    expect(() => toClientExpectedRevision(-1n)).toThrow(RangeError);
  });

  it('writes the schema version into the metadata and reads it back out', () => {
    const stored = toStoredEvent({ ...testEvent('A', { n: 1 }), schemaVersion: 2 }, 'id-1');
    expect(stored).toEqual({
      id: 'id-1',
      type: 'A',
      data: { n: 1 },
      metadata: { ...testMetadata, $schemaVersion: 2 },
    });
    const event = toRecordedEvent({ event: recorded() });
    expect(event).toEqual({
      id: '0b0d6a4e-5a55-4f0e-9c1e-2b3a4c5d6e7f',
      type: 'ServiceRegistered',
      schemaVersion: 2,
      stream: 'service-1',
      revision: 3n,
      position: 9_007_199_254_740_993n,
      recordedAt: '2026-11-23T10:00:00.000Z',
      data: { name: 'web' },
      metadata: testMetadata,
    });
  });

  it('keeps the recorded time a migration carried over', () => {
    const event = recorded({
      metadata: { ...testMetadata, $schemaVersion: 1, $recordedAt: '2025-01-01T00:00:00.000Z' },
    });
    expect(toRecordedEvent({ event }).recordedAt).toBe('2025-01-01T00:00:00.000Z');
  });

  it('refuses events Slipway did not write, non-JSON events and unresolved links', () => {
    expect(() => toRecordedEvent({ event: recorded({ metadata: {} }) })).toThrow(/not written/);
    expect(() => toRecordedEvent({ event: recorded({ isJson: false }) })).toThrow(/not JSON/);
    expect(() => toRecordedEvent({})).toThrow(/without its event/);
  });

  it('takes the commit position, 64-bit and sparse, and 0 where the server has none', () => {
    expect(positionOf({ event: recorded() })).toBe(9_007_199_254_740_993n);
    expect(positionOf({ event: recorded({ position: undefined }), commitPosition: 42n })).toBe(42n);
    expect(
      positionOf({ event: recorded({ position: { commit: NO_POSITION, prepare: 0n } }) }),
    ).toBe(0n);
  });

  it('reads $all from the start, or from the record before and at the asked position', () => {
    expect(readAllStarts(0n)).toEqual(['start']);
    expect(readAllStarts(1n)).toEqual(['start']);
    expect(readAllStarts(4097n)).toEqual([
      { commit: 4096n, prepare: 4096n },
      { commit: 4097n, prepare: 4097n },
    ]);
  });

  it('tells system events apart', () => {
    expect(isSystemEvent(recorded({ type: '$statsCollected' }))).toBe(true);
    expect(isSystemEvent(recorded({ streamId: '$settings', type: 'update' }))).toBe(true);
    expect(isSystemEvent(recorded())).toBe(false);
  });

  it('translates a wrong expected version into CONFLICT, and leaves other errors alone', () => {
    const wrong = { type: 'wrong-expected-version', actualVersion: 4n, streamName: 's' };
    const translated = translateAppendError(wrong, 's', 2n);
    expect(translated).toBeInstanceOf(WrongExpectedRevisionError);
    expect(translated).toMatchObject({
      code: 'CONFLICT',
      data: { stream: 's', expectedRevision: '2', actualRevision: '4' },
    });
    const missing = translateAppendError(
      { type: 'wrong-expected-version', actualVersion: 'no_stream' },
      's',
      'stream_exists',
    );
    expect(missing).toMatchObject({ data: { actualRevision: 'no_stream' } });
    const other = new Error('boom');
    expect(translateAppendError(other, 's', 'any')).toBe(other);
  });

  it('classifies unreachable servers and invalid positions', () => {
    expect(isUnavailable({ type: 'unavailable' })).toBe(true);
    expect(isUnavailable({ type: 'deadline-exceeded' })).toBe(true);
    expect(isUnavailable({ type: 'wrong-expected-version' })).toBe(false);
    expect(isUnavailable(null)).toBe(false);
    expect(isInvalidPosition({ type: 'invalid-argument' })).toBe(true);
    expect(isInvalidPosition({ message: 'Invalid position: 17' })).toBe(true);
    expect(isInvalidPosition({ type: 'unavailable', message: 'down' })).toBe(false);
  });

  it('backs off exponentially up to a ceiling', () => {
    expect([0, 1, 2, 3].map((a) => backoffMs(a))).toEqual([250, 500, 1000, 2000]);
    expect(backoffMs(40)).toBe(30_000);
  });
});
