import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { errorForLog } from '../common/log-text.js';

const logger = new Logger('Runner');

/**
 * Work done every few seconds by the process that runs deployments: started at bootstrap unless
 * `intervalSeconds` is 0, never two passes at once, and a shutdown waits for the one running.
 */
export abstract class PeriodicPass implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  /** Seconds between passes; 0 (or the runner off): none. */
  protected abstract intervalSeconds(): number;

  protected abstract pass(): Promise<void>;

  onApplicationBootstrap(): void {
    const seconds = this.intervalSeconds();
    if (seconds === 0) return;
    this.timer = setInterval(() => {
      // A pass that fails (the store unreachable) is logged; the next one tries again.
      this.tick().catch((error: unknown) =>
        logger.error(`${this.constructor.name} pass failed`, errorForLog(error)),
      );
    }, seconds * 1000);
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
