import type { Filter } from './read-store.port.js';

/*
 * Records that expire while pending (invites, approval requests) are never stored as `expired`:
 * a pending one whose `expiresAt` has passed reads as expired. `now` is an ISO time.
 */

/** The filter for records that read as `status` at `now`; every record when none is asked for. */
export function expiringStatusFilter(status: string | undefined, now: string): Filter {
  if (status === 'expired') return { status: 'pending', expiresAt: { $lte: now } };
  if (status === 'pending') return { status: 'pending', expiresAt: { $gt: now } };
  return status ? { status } : {};
}

/** The status a record reads as at `now`. */
export function statusAt<S extends string>(
  record: { status: S; expiresAt: string },
  now: string,
): S | 'expired' {
  return record.status === 'pending' && record.expiresAt <= now ? 'expired' : record.status;
}
