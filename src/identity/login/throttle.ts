import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';

interface Window {
  count: number;
  resetsAt: number;
}

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * Fixed-window counters in memory, on the injected clock (so tests move time, not sleep).
 * Hand-written rather than a rate-limit library because the limits here are per account as
 * well as per address, are counted only on failure for accounts, and must follow the app clock.
 */
@Injectable()
export class Throttle {
  private readonly windows = new Map<string, Window>();

  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /** Refuses with RATE_LIMITED (and the seconds to wait) when `key` has used its window up. */
  check(key: string, limit: Limit): void {
    const window = this.current(key);
    if (window && window.count >= limit.max) {
      const retryAfterSeconds = Math.max(
        1,
        Math.ceil((window.resetsAt - this.clock.now().getTime()) / 1000),
      );
      throw new AppError('RATE_LIMITED', 'Too many attempts; try again later', {
        retryAfterSeconds,
      });
    }
  }

  hit(key: string, limit: Limit): void {
    const now = this.clock.now().getTime();
    const window = this.current(key) ?? { count: 0, resetsAt: now + limit.windowMs };
    window.count += 1;
    this.windows.set(key, window);
    if (this.windows.size > 50_000) this.sweep(now);
  }

  /** Check, then count: for limits that count every attempt. */
  take(key: string, limit: Limit): void {
    this.check(key, limit);
    this.hit(key, limit);
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string): Window | null {
    const window = this.windows.get(key);
    if (!window) return null;
    if (window.resetsAt <= this.clock.now().getTime()) {
      this.windows.delete(key);
      return null;
    }
    return window;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetsAt <= now) this.windows.delete(key);
  }
}

const MINUTE = 60_000;

/** The limits of the unauthenticated auth endpoints (docs/security.md, "Throttling"). */
export const AUTH_LIMITS = {
  /** Login, per client address, every attempt. */
  loginPerAddress: { max: 30, windowMs: 5 * MINUTE },
  /** Login, per account and address not known to that account: failures (a success clears). */
  loginFailuresPerAccountAddress: { max: 5, windowMs: 15 * MINUTE },
  /** Login, per account, over every address not known to it: failures, a slower budget. */
  loginFailuresPerAccount: { max: 10, windowMs: 60 * MINUTE },
  /** Second-factor verification, per client address. */
  verifyPerAddress: { max: 30, windowMs: 5 * MINUTE },
  /**
   * Wrong second-factor codes (TOTP or recovery), per account, wherever they are typed: at
   * login and in the MFA commands of a session. Counted on failure; a right code clears it.
   */
  secondFactorFailuresPerAccount: { max: 10, windowMs: 15 * MINUTE },
  /** Wrong passwords confirming an MFA change from a session, per account (failures). */
  passwordConfirmFailuresPerAccount: { max: 5, windowMs: 15 * MINUTE },
  /** Reset requests, per client address and per email. */
  resetRequestPerAddress: { max: 10, windowMs: 60 * MINUTE },
  resetRequestPerEmail: { max: 3, windowMs: 60 * MINUTE },
  /** Setting a new password with a reset token, per client address. */
  resetPerAddress: { max: 10, windowMs: 15 * MINUTE },
  /** Accepting an invite, per client address. */
  acceptInvitePerAddress: { max: 10, windowMs: 15 * MINUTE },
  /** Single sign-on: starts, callbacks and CLI hand-offs, per client address. */
  ssoPerAddress: { max: 60, windowMs: 5 * MINUTE },
} satisfies Record<string, Limit>;

/**
 * Login from an address or device known to the account (it signed in from there before): no
 * hard lock, but after `freeFailures` failures each further one doubles the wait before the
 * next attempt, from `firstDelayMs` up to `maxDelayMs`. Forgotten after `quietMs` without an
 * attempt past the wait, and on success.
 */
export const KNOWN_SOURCE_BACKOFF = {
  freeFailures: 5,
  firstDelayMs: 1000,
  maxDelayMs: 15 * MINUTE,
  quietMs: 15 * MINUTE,
};
