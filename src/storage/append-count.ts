import { AsyncLocalStorage } from 'node:async_hooks';

const counters = new AsyncLocalStorage<{ appended: number }>();

/**
 * Runs `work` and returns, with its value, how many events it appended through the write path
 * (in any call it made, however deep): so a surface can tell a command that changed nothing.
 */
export async function countingAppends<T>(
  work: () => Promise<T>,
): Promise<{ value: T; appended: number }> {
  const counter = { appended: 0 };
  const value = await counters.run(counter, work);
  return { value, appended: counter.appended };
}

/** Called by the write path once events are stored. */
export function appended(count: number): void {
  const counter = counters.getStore();
  if (counter) counter.appended += count;
}
