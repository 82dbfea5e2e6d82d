import type { DeploymentLogStore, LogLineData } from '../deployments/deployment-log-store.js';
import type { Clock } from '../common/clock.js';

/** After a failed write (the store unreachable), the lines wait this long and are tried again. */
const RETRY_MS = 1_000;

/**
 * Numbers a deployment's output lines and writes them in small batches: at 50 lines, or 100 ms
 * after the first unwritten line, so readers following a deployment see output almost live.
 * A batch the store refuses goes back in front of the pending lines and is tried again: output
 * written while the database restarts is late, not lost, and never stops the deployment.
 */
export class LogWriter {
  private line = 0;
  private pending: LogLineData[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: DeploymentLogStore,
    private readonly deploymentId: string,
    private readonly clock: Clock,
  ) {}

  write(step: string, stream: 'stdout' | 'stderr', text: string): void {
    this.pending.push({
      deploymentId: this.deploymentId,
      line: ++this.line,
      step,
      stream,
      text: text.slice(0, 8192),
      at: this.clock.now().toISOString(),
    });
    if (this.pending.length >= 50) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), 100);
  }

  /** Writes what is pending; never rejects (a failed batch is kept and retried). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.store.append(batch);
      } catch {
        this.pending = [...batch, ...this.pending];
        this.timer ??= setTimeout(() => void this.flush(), RETRY_MS);
      }
    });
    return this.flushing;
  }
}
