export interface RetryPolicy {
  /** True once the caller is shutting down: the failure is then thrown, not retried. */
  stopping: () => boolean;
  /** How long to wait after the `attempt`-th failure. */
  delayMs: (attempt: number) => number;
  /** Told of each failure that will be retried. */
  onFailure: (error: unknown, attempt: number) => void;
}

/**
 * Runs `work` until it succeeds: a consumer of the event log that must not skip an event retries
 * it (a busy store, read models lagging) rather than move past it.
 */
export async function retryUntilDone(
  work: () => Promise<void>,
  policy: RetryPolicy,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if (policy.stopping()) throw error;
      policy.onFailure(error, attempt);
      await new Promise((resolve) => setTimeout(resolve, policy.delayMs(attempt)));
    }
  }
}
