import type { RequestContext } from '../../kernel/request-context.js';
import { AddressRefusedError } from './address-gate.js';
import { GENERIC_FAILURES, seesConnectionDetails } from './connection-failures.js';
import { HostKeyMismatchError } from './ssh-connect.js';

/**
 * Why a connection to a server did not get as far as asked. `connect-failed` is the one class a
 * caller below admin reads, whatever the cause (see connection-failures.ts).
 */
export const FAILURE_CLASSES = [
  'address-refused',
  'unresolved',
  'timeout',
  'refused',
  'unreachable',
  'no-ssh-server',
  'handshake-failed',
  'host-key-mismatch',
  'auth-failed',
  'key-unusable',
  'error',
  'connect-failed',
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

export interface ConnectionFailure {
  class: FailureClass;
  message: string;
}

/**
 * The outcome of one connection to a registered server. `login`: the sealed key authenticated
 * (and nothing was run); `handshake`: only the key exchange, hung up before authentication.
 * A field is null when the connection did not get far enough to tell, or when it is withheld.
 */
export interface ConnectionReport {
  ok: boolean;
  mode: 'login' | 'handshake';
  /** The address connected to, after the server address policy. */
  address: string | null;
  /** An SSH server answered at the address. */
  reachable: boolean | null;
  hostKeyMatches: boolean | null;
  authenticated: boolean | null;
  /** From the start of the TCP connection to a session (login) or a finished key exchange. */
  latencyMs: number | null;
  error: ConnectionFailure | null;
}

const UNREACHABLE = new Set([
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
]);

/** Sorts an error of the address gate or of ssh2 into a class. */
export function classifyFailure(error: unknown): ConnectionFailure {
  // Some socket errors reach ssh2's listeners with their name already in the message.
  const message = (error instanceof Error ? error.message : String(error)).replace(/^Error: /, '');
  const as = (cls: FailureClass): ConnectionFailure => ({ class: cls, message });
  if (error instanceof HostKeyMismatchError) return as('host-key-mismatch');
  if (error instanceof AddressRefusedError)
    return as(error.kind === 'refused' ? 'address-refused' : 'unresolved');
  const { level, code } = (error ?? {}) as { level?: unknown; code?: unknown };
  if (level === 'client-timeout' || code === 'ETIMEDOUT') return as('timeout');
  if (level === 'client-authentication') return as('auth-failed');
  if (code === 'ECONNREFUSED') return as('refused');
  if (typeof code === 'string' && UNREACHABLE.has(code)) return as('unreachable');
  if (level === 'handshake') return as('handshake-failed');
  if (level === 'protocol' || level === 'client-socket' || /before handshake/i.test(message))
    return as('no-ssh-server');
  if (/private ?key|key format/i.test(message)) return as('key-unusable');
  return as('error');
}

/** What a failure says about how far the connection got. */
export function failedReport(
  mode: ConnectionReport['mode'],
  address: string | null,
  failure: ConnectionFailure,
): ConnectionReport {
  const answered = ['handshake-failed', 'host-key-mismatch', 'auth-failed'].includes(failure.class);
  const silent = ['timeout', 'refused', 'unreachable', 'no-ssh-server'].includes(failure.class);
  return {
    ok: false,
    mode,
    address,
    reachable: answered ? true : silent ? false : null,
    hostKeyMatches:
      failure.class === 'host-key-mismatch' ? false : failure.class === 'auth-failed' ? true : null,
    authenticated: mode === 'login' && failure.class === 'auth-failed' ? false : null,
    latencyMs: null,
    error: failure,
  };
}

/**
 * The report as this caller may read it: below admin, a failure is only "could not connect",
 * so that refused, timed out, unreachable and wrong host key read the same.
 */
export function reportFor(
  report: ConnectionReport,
  ctx: RequestContext | null | undefined,
): ConnectionReport {
  if (report.ok || seesConnectionDetails(ctx)) return report;
  return {
    ...report,
    address: null,
    reachable: null,
    hostKeyMatches: null,
    authenticated: null,
    error: { class: 'connect-failed', message: GENERIC_FAILURES.connect },
  };
}
