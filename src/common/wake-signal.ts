/**
 * Wakes a polling loop: `wait` resolves on `signal()` or after a timeout. A signal that arrives
 * while the loop is busy stays pending, so the next `wait` returns at once and nothing is missed.
 */
export class WakeSignal {
  private pending = false;
  private wake: (() => void) | null = null;

  signal(): void {
    this.pending = true;
    this.wake?.();
  }

  /** Call at the start of each pass, before looking for work. */
  reset(): void {
    this.pending = false;
  }

  wait(timeoutMs: number): Promise<void> {
    if (this.pending) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.wake = finish;
    });
  }
}
