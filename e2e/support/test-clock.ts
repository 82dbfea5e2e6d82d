import type { Clock } from '../../src/common/clock.js';

/** Real time plus an offset the test moves forward: expiry without sleeping. */
export class TestClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;

  now(): Date {
    return new Date((this.frozenAt ?? Date.now()) + this.offsetMs);
  }

  /** Stops real time, for a test whose outcome must not depend on how fast the machine is. */
  freeze(): void {
    this.frozenAt = Date.now();
  }

  thaw(): void {
    this.frozenAt = null;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /**
   * Moves forward to the middle of a `period` (a minute, an hour), its boundaries half a period
   * away: a test that calls a scheduler twice for one due time does not see a second one come
   * due because the real clock crossed a boundary in between.
   */
  toMiddleOf(period: number): void {
    this.advance((period * 1.5 - (this.now().getTime() % period)) % period);
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
