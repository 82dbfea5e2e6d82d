import type { DeploymentLogStore, LogLineData } from '../deployments/deployment-log-store.js';
import type { Clock } from '../common/clock.js';

/** Numbers a deployment's output lines and writes them in small batches. */
export class LogWriter {
  private line = 0;
  private pending: LogLineData[] = [];
  private flushing: Promise<void> = Promise.resolve();

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
  }

  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => (batch.length ? this.store.append(batch) : undefined));
    return this.flushing;
  }
}
