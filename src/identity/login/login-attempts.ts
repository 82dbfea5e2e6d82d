import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { AUTH_LIMITS, KNOWN_SOURCE_BACKOFF, type Limit } from './throttle.js';

interface Window {
  count: number;
  resetsAt: number;
}

interface Backoff {
  failures: number;
  /** No attempt is admitted before this time. */
  notBefore: number;
  lastAt: number;
}

interface AccountAttempts {
  /** Failures from every address not known to the account, together. */
  global: Window | null;
  /** Failures per address not known to the account. */
  unknown: Map<string, Window>;
  /** Failures per known address or device: waits that grow, never a lock. */
  known: Map<string, Backoff>;
  /** Addresses the account signed in from, most recent first. */
  knownAddresses: string[];
}

/** Where an attempt comes from: the client address key, and a verified device, if any. */
export interface LoginSource {
  address: string;
  deviceId: string | null;
}

/** An admitted attempt, counted as a failure until `succeeded` says otherwise. */
export interface LoginTicket {
  account: string;
  source: string;
  known: boolean;
  global: Window | null;
}

const MAX_ACCOUNTS = 50_000;
const MAX_KNOWN_ADDRESSES = 10;

/**
 * Login attempts per account, in memory, on the service clock (docs/security.md, "Throttling"). `admit`
 * checks and counts in one synchronous step, before the password is verified, so concurrent
 * attempts cannot all pass a check that none of them has counted yet.
 *
 * An address or device the account signed in from before is known: its failures only slow it
 * down. Every other address has its own small budget, and all of them together share a slower
 * one per account; when that is spent, unknown addresses wait for the window, while the owner's
 * known addresses and devices still get in. A passed second factor or a password reset clears it.
 */
@Injectable()
export class LoginAttempts {
  private readonly accounts = new Map<string, AccountAttempts>();

  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /** Counts the attempt as a failure, or refuses it with RATE_LIMITED. */
  admit(account: string, source: LoginSource): LoginTicket {
    const now = this.clock.now().getTime();
    const state = this.stateOf(account);
    if (source.deviceId !== null || state.knownAddresses.includes(source.address)) {
      const key =
        source.deviceId !== null ? `device:${source.deviceId}` : `address:${source.address}`;
      admitKnown(state, key, now);
      return { account, source: key, known: true, global: null };
    }
    const key = `address:${source.address}`;
    const pair = current(state.unknown.get(key), now);
    const global = current(state.global, now);
    refuseWhenSpent(pair, AUTH_LIMITS.loginFailuresPerAccountAddress, now);
    refuseWhenSpent(global, AUTH_LIMITS.loginFailuresPerAccount, now);
    if (state.unknown.size >= 64) forgetExpired(state.unknown, now);
    state.unknown.set(key, counted(pair, AUTH_LIMITS.loginFailuresPerAccountAddress, now));
    state.global = counted(global, AUTH_LIMITS.loginFailuresPerAccount, now);
    return { account, source: key, known: false, global: state.global };
  }

  /** The password was right: this source's failures are forgotten, the attempt given back. */
  succeeded(ticket: LoginTicket): void {
    const state = this.accounts.get(ticket.account);
    if (!state) return;
    if (ticket.known) {
      state.known.delete(ticket.source);
      return;
    }
    state.unknown.delete(ticket.source);
    if (ticket.global && state.global === ticket.global) {
      ticket.global.count = Math.max(0, ticket.global.count - 1);
    }
  }

  /** A session started from this address: it is known to the account from now on. */
  signedIn(account: string, address: string): void {
    const state = this.stateOf(account);
    state.knownAddresses = [address, ...state.knownAddresses.filter((a) => a !== address)].slice(
      0,
      MAX_KNOWN_ADDRESSES,
    );
  }

  /** A second factor passed or the password was reset: every count on the account is cleared. */
  recovered(account: string): void {
    const state = this.accounts.get(account);
    if (!state) return;
    state.global = null;
    state.unknown.clear();
    state.known.clear();
  }

  private stateOf(account: string): AccountAttempts {
    const existing = this.accounts.get(account);
    // Most recently used last, so that the oldest go first when memory runs short.
    if (existing) this.accounts.delete(account);
    const state = existing ?? {
      global: null,
      unknown: new Map<string, Window>(),
      known: new Map<string, Backoff>(),
      knownAddresses: [],
    };
    this.accounts.set(account, state);
    if (this.accounts.size > MAX_ACCOUNTS) this.evict();
    return state;
  }

  private evict(): void {
    const now = this.clock.now().getTime();
    for (const [account, state] of this.accounts) {
      if (this.accounts.size <= MAX_ACCOUNTS * 0.9) return;
      if (idle(state, now)) this.accounts.delete(account);
    }
    for (const account of this.accounts.keys()) {
      if (this.accounts.size <= MAX_ACCOUNTS * 0.9) return;
      this.accounts.delete(account);
    }
  }
}

function admitKnown(state: AccountAttempts, key: string, now: number): void {
  const { freeFailures, firstDelayMs, maxDelayMs, quietMs } = KNOWN_SOURCE_BACKOFF;
  let backoff = state.known.get(key);
  if (backoff && now >= Math.max(backoff.notBefore, backoff.lastAt) + quietMs) backoff = undefined;
  if (backoff && now < backoff.notBefore) throw rateLimited(backoff.notBefore - now);
  const next = backoff ?? { failures: 0, notBefore: 0, lastAt: now };
  next.failures += 1;
  next.lastAt = now;
  if (next.failures >= freeFailures) {
    next.notBefore = now + Math.min(maxDelayMs, firstDelayMs * 2 ** (next.failures - freeFailures));
  }
  state.known.set(key, next);
}

function current(window: Window | null | undefined, now: number): Window | null {
  return window && window.resetsAt > now ? window : null;
}

function refuseWhenSpent(window: Window | null, limit: Limit, now: number): void {
  if (window && window.count >= limit.max) throw rateLimited(window.resetsAt - now);
}

function counted(window: Window | null, limit: Limit, now: number): Window {
  const next = window ?? { count: 0, resetsAt: now + limit.windowMs };
  next.count += 1;
  return next;
}

function forgetExpired(windows: Map<string, Window>, now: number): void {
  for (const [key, window] of windows) if (!current(window, now)) windows.delete(key);
}

function idle(state: AccountAttempts, now: number): boolean {
  const { quietMs } = KNOWN_SOURCE_BACKOFF;
  return (
    state.knownAddresses.length === 0 &&
    !current(state.global, now) &&
    [...state.unknown.values()].every((w) => !current(w, now)) &&
    [...state.known.values()].every((b) => now >= Math.max(b.notBefore, b.lastAt) + quietMs)
  );
}

/** The same answer whatever the reason, so a refusal tells nothing about the password. */
function rateLimited(waitMs: number): AppError {
  return new AppError('RATE_LIMITED', 'Too many attempts; try again later', {
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}
