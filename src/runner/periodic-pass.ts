import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

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
    this.timer = setInterval(() => void this.tick(), seconds * 1000);
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
