import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { errorForLog } from '../common/log-text.js';

const logger = new Logger('Runner');

/**
 * Work done every so often by the process that runs deployments: started at bootstrap unless
 * its interval is 0, never two passes at once, and a shutdown waits for the one running.
 */
export abstract class PeriodicPass implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  /** Seconds between passes; 0 (or the runner off): none. */
  protected intervalSeconds(): number {
    return 0;
  }

  /** Milliseconds between passes, for passes more often than each second; else the seconds'. */
  protected intervalMs(): number {
    return this.intervalSeconds() * 1000;
  }

  protected abstract pass(): Promise<void>;

  onApplicationBootstrap(): void {
    const ms = this.intervalMs();
    if (ms === 0) return;
    this.timer = setInterval(() => {
      // A pass that fails (the store unreachable) is logged; the next one tries again.
      this.tick().catch((error: unknown) =>
        logger.error(`${this.constructor.name} pass failed`, errorForLog(error)),
      );
    }, ms);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass (not two at once). */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }
}
