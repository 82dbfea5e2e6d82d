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
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
