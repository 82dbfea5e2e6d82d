import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { errorForLog } from './log-text.js';

const runnerLogger = new Logger('Runner');

export interface PeriodicPassOptions {
  /** Where a failed pass is logged; the `Runner` logger unless given. */
  logger?: Logger;
  /** The line a failed pass logs; `<class name> pass failed` unless given. */
  failure?: string;
  /** With passes on, a first one this long after start, not one interval later. */
  firstPassAfterMs?: number;
}

/**
 * Work done every so often in the background: started at bootstrap unless its interval is 0,
 * never two passes at once, and a shutdown waits for the one running. `T` is what a pass
 * answers, for callers of `tick()` (tests, "verify now" buttons).
 */
export abstract class PeriodicPass<T = void>
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private timer: NodeJS.Timeout | null = null;
  private first: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;
  /** Set at shutdown, for work that outlasts a pass (a wait, a loop) to stop early. */
  protected stopped = false;

  constructor(private readonly options: PeriodicPassOptions = {}) {}

  /** Seconds between passes; 0 (or the runner off): none. */
  protected intervalSeconds(): number {
    return 0;
  }

  /** Milliseconds between passes, for passes more often than each second; else the seconds'. */
  protected intervalMs(): number {
    return this.intervalSeconds() * 1000;
  }

  protected abstract pass(): Promise<T>;

  onApplicationBootstrap(): void {
    const ms = this.intervalMs();
    if (ms === 0) return;
    const tick = () => {
      // A pass that fails (the store unreachable) is logged; the next one tries again.
      this.tick().catch((error: unknown) =>
        (this.options.logger ?? runnerLogger).error(
          this.options.failure ?? `${this.constructor.name} pass failed`,
          errorForLog(error),
        ),
      );
    };
    this.timer = setInterval(tick, ms);
    this.timer.unref();
    if (this.options.firstPassAfterMs === undefined) return;
    this.first = setTimeout(tick, this.options.firstPassAfterMs);
    this.first.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.first) clearTimeout(this.first);
    // Its failure was logged (or answered to whoever called tick()); shutdown goes on.
    await this.running?.catch(() => undefined);
  }

  /** One pass (not two at once: a call during one answers that one). */
  tick(): Promise<T> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }
}
