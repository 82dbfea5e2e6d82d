import { deepFreeze } from '../common/deep-freeze.js';
import type { RequestContext } from '../kernel/request-context.js';
import type { ReadStore } from '../readstore/read-store.port.js';
import { ReadThrough } from '../readstore/read-through.js';

type Invoke = (input: unknown, ctx: RequestContext) => Promise<unknown>;

/** Answers kept at once: each at most a page (100 documents), and only until the next commit. */
const MAX_KEPT = 256;

/**
 * The answers of procedures declared `readModelsOnly`, by procedure and validated input, kept
 * until the read models change: a page polled by every dashboard and agent is read from the
 * store and shaped once per change instead of once per call. The guard and validation still
 * run on every call; only the work after them is shared. Kept answers are frozen, so no
 * surface can change one for the callers after it.
 */
export class KeptAnswers {
  private readonly kept: ReadThrough;

  constructor(store: ReadStore) {
    this.kept = new ReadThrough(store, MAX_KEPT);
  }

  around(name: string, invoke: Invoke): Invoke {
    return (input, ctx) =>
      this.kept.read(`${name} ${JSON.stringify(input ?? null)}`, async () =>
        deepFreeze(await invoke(input, ctx)),
      );
  }
}
