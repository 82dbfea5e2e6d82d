import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { PeriodicPass, type PeriodicPassOptions } from './periodic-pass.js';

/** Counts its passes; each waits until `finish()` (or fails, when told to). */
class Counter extends PeriodicPass<number> {
  passes = 0;
  failNext = false;
  private release: (() => void) | null = null;

  constructor(
    private readonly ms: number,
    options?: PeriodicPassOptions,
  ) {
    super(options);
  }

  protected override intervalMs(): number {
    return this.ms;
  }

  protected async pass(): Promise<number> {
    this.passes += 1;
    await new Promise<void>((resolve) => (this.release = resolve));
    if (this.failNext) throw new Error('unreachable');
    return this.passes;
  }

  finish(): void {
    this.release?.();
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}

describe('PeriodicPass', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs a pass each interval, never two at once, and answers a call during one with it', async () => {
    const counter = new Counter(1000);
    counter.onApplicationBootstrap();
    jest.advanceTimersByTime(1000);
    expect(counter.passes).toBe(1);
    // The next interval (and a direct call) while it runs start nothing new.
    jest.advanceTimersByTime(1000);
    const during = counter.tick();
    expect(counter.passes).toBe(1);
    counter.finish();
    expect(await during).toBe(1);
    await counter.onApplicationShutdown();
  });

  it('starts nothing when its interval is 0', () => {
    const counter = new Counter(0, { firstPassAfterMs: 10 });
    counter.onApplicationBootstrap();
    jest.advanceTimersByTime(60_000);
    expect(counter.passes).toBe(0);
  });

  it('runs a first pass soon after start when asked to', () => {
    const counter = new Counter(60_000, { firstPassAfterMs: 5_000 });
    counter.onApplicationBootstrap();
    jest.advanceTimersByTime(5_000);
    expect(counter.passes).toBe(1);
  });

  it('logs a failed pass with its own line, and a shutdown waits for the running pass', async () => {
    const logger = new Logger('Test');
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const counter = new Counter(1000, { logger, failure: 'The count failed' });
    counter.onApplicationBootstrap();
    jest.advanceTimersByTime(1000);
    counter.failNext = true;
    let stopped = false;
    const shutdown = counter.onApplicationShutdown().then(() => (stopped = true));
    expect(counter.isStopped).toBe(true);
    await Promise.resolve();
    expect(stopped).toBe(false);
    counter.finish();
    await shutdown;
    expect(error).toHaveBeenCalledWith('The count failed', expect.stringContaining('unreachable'));
    // No pass after shutdown.
    jest.advanceTimersByTime(10_000);
    expect(counter.passes).toBe(1);
  });
});
