import { describe, expect, it } from '@jest/globals';
import { AppError } from '../../common/app-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { LogStreamSlots, SLOT_RETRY_AFTER_SECONDS } from './log-stream-slots.js';

const slots = (perPrincipal: number, perServer: number) =>
  new LogStreamSlots({
    streams: { containerLogsPerPrincipal: perPrincipal, containerLogsPerServer: perServer },
  } as AppConfig);

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

describe('LogStreamSlots', () => {
  it('refuses a principal past its limit with RATE_LIMITED and the seconds to wait', () => {
    const s = slots(2, 10);
    s.take('alice', 'srv');
    s.take('alice', 'srv');
    const error = refusal(() => s.take('alice', 'srv'));
    expect([error.code, error.data]).toEqual([
      'RATE_LIMITED',
      { retryAfterSeconds: SLOT_RETRY_AFTER_SECONDS, per: 'principal', limit: 2 },
    ]);
    // Someone else still gets one on the same server.
    expect(() => s.take('bob', 'srv')).not.toThrow();
  });

  it('refuses everyone past the limit of a server, and other servers stay open', () => {
    const s = slots(10, 2);
    s.take('alice', 'srv');
    s.take('bob', 'srv');
    expect(refusal(() => s.take('carol', 'srv')).data).toMatchObject({ per: 'server', limit: 2 });
    expect(() => s.take('carol', 'other')).not.toThrow();
  });

  it('gives a slot back once, however often release is called, and counts nothing refused', () => {
    const s = slots(1, 1);
    const release = s.take('alice', 'srv');
    refusal(() => s.take('alice', 'srv'));
    release();
    release();
    expect([s.open({ principalId: 'alice' }), s.open({ serverId: 'srv' })]).toEqual([0, 0]);
    const again = s.take('alice', 'srv');
    expect(s.open({ serverId: 'srv' })).toBe(1);
    again();
  });
});
