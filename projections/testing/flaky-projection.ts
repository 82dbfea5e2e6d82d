import type { Projection } from '../projection.js';

/**
 * Counts `Counted` events in one document, `flaky/only`, but throws `transient` the first
 * `failures` times it applies one (only the event at position `at`, when given): a projection
 * the runner must retry without holding the others back.
 */
export function flakyProjection(failures: number, at?: bigint): Projection {
  let left = failures;
  return {
    name: 'flaky',
    version: 1,
    collections: [{ name: 'flaky' }],
    handlers: {
      Counted: [
        {
          collection: 'flaky',
          documentId: () => 'only',
          evolve: (current, event) => {
            if ((at === undefined || event.position === at) && left-- > 0) {
              throw new Error('transient');
            }
            return { id: 'only', seen: Number(current?.seen ?? 0) + 1 };
          },
        },
      ],
    },
  };
}
