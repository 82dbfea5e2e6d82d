import { describe, expect, it } from '@jest/globals';
import { expiringStatusFilter, statusAt } from './expiring-status.js';

const NOW = '2030-01-01T00:00:00.000Z';

describe('expiring statuses', () => {
  it('reads a pending record past its expiry as expired, and no other', () => {
    expect(statusAt({ status: 'pending', expiresAt: NOW }, NOW)).toBe('expired');
    expect(statusAt({ status: 'pending', expiresAt: '2030-01-02T00:00:00.000Z' }, NOW)).toBe(
      'pending',
    );
    expect(statusAt({ status: 'accepted', expiresAt: '2020-01-01T00:00:00.000Z' }, NOW)).toBe(
      'accepted',
    );
  });

  it('filters pending and expired by the expiry, other statuses by themselves', () => {
    expect(expiringStatusFilter('expired', NOW)).toEqual({
      status: 'pending',
      expiresAt: { $lte: NOW },
    });
    expect(expiringStatusFilter('pending', NOW)).toEqual({
      status: 'pending',
      expiresAt: { $gt: NOW },
    });
    expect(expiringStatusFilter('revoked', NOW)).toEqual({ status: 'revoked' });
    expect(expiringStatusFilter(undefined, NOW)).toEqual({});
  });
});
