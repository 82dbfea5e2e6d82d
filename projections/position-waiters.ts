import { AppError } from '../src/common/app-error.js';

interface Waiter {
  position: number;
  names: Set<string> | null;
  resolve: () => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/** Whether the named projections (all when null) have applied `position`. */
export type Reached = (position: number, names: Set<string> | null) => boolean;

/**
 * Callers waiting for projections to reach a position: each is resolved once they have, or
 * refused with SERVICE_UNAVAILABLE after the timeout (the change itself is recorded either way).
 */
export class PositionWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(
    private readonly reached: Reached,
    private readonly timeoutMs: number,
    /** What the refusal reports of the projections. */
    private readonly status: () => unknown,
  ) {}

  /** Resolved at once when reached; else when `settle` finds it reached, or refused in time. */
  wait(position: number, names: Set<string> | null): Promise<void> {
    if (this.reached(position, names)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        position,
        names,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(
            new AppError(
              'SERVICE_UNAVAILABLE',
              'The change was recorded but the read models have not caught up yet',
              { position, projections: this.status() },
            ),
          );
        }, this.timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Resolves every waiter whose position is now reached. */
  settle(): void {
    for (const waiter of this.waiters) {
      if (this.reached(waiter.position, waiter.names)) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /** Refuses the waiters whose projections (null: all) match. */
  refuseWhere(match: (names: Set<string> | null) => boolean, error: AppError): void {
    for (const waiter of this.waiters) {
      if (!match(waiter.names)) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.reject(error);
    }
  }

  /** Refuses every waiter (the runner stops). */
  refuseAll(error: AppError): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiters.clear();
  }
}
