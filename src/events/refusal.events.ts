import { DENIAL_CODES, type ErrorCode } from '../common/error-codes.js';
import { defineEvent } from '../eventstore/define-event.js';
import type { Lane } from '../kernel/lanes.js';

/**
 * A refused or failed call. `count` calls are covered: 1 for the first of a window, or the
 * identical repeats coalesced after it (`coalesced: true`), seen between `firstAt` and `lastAt`.
 * `target` is `*` (and `code` `*`) when a client's distinct refusals overflowed their cap.
 */
export type RefusalData = {
  surface: 'procedure' | 'route';
  target: string;
  lane: Lane;
  code: ErrorCode | '*' | null;
  inputFields: string[];
  count: number;
  coalesced: boolean;
  firstAt: string;
  lastAt: string;
  /** Present only for calls that came through MCP (absent: `http`). */
  channel?: 'mcp';
};

/** Refused before the work: no or bad credentials, forbidden, MFA policy, throttled. */
export const AccessDenied = defineEvent<RefusalData>('AccessDenied', 1);
/** Admitted, then failed: invalid input, conflict, unknown resource, internal error. */
export const CommandRejected = defineEvent<RefusalData>('CommandRejected', 1);

/**
 * A command call that succeeded but appended nothing (an idempotent repeat, a change to the
 * value already set, nothing to seal): still a call someone made, so still on the trail.
 */
export const CommandHadNoEffect = defineEvent<RefusalData>('CommandHadNoEffect', 1);

export const REFUSALS_STREAM = 'audit-refusals';

/** Denials, and throttling: refused before any work was done. */
const ACCESS_CODES: ReadonlySet<string> = new Set([...DENIAL_CODES, 'RATE_LIMITED']);

export function isAccessRefusal(code: string): boolean {
  return ACCESS_CODES.has(code);
}

export function refusalEventType(
  code: string | null,
): 'AccessDenied' | 'CommandRejected' | 'CommandHadNoEffect' {
  if (code === null) return 'CommandHadNoEffect';
  return isAccessRefusal(code) || code === '*' ? 'AccessDenied' : 'CommandRejected';
}
