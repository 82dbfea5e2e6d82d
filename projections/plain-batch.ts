import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { ReadStore } from '../src/readstore/read-store.port.js';
import { applyIn, saveCheckpoint } from './apply-events.js';
import type { ProjectionLeases } from './projection-lease.js';
import { handlersFor } from './projection.js';
import type { BatchHooks, RunnerState as State } from './runner-state.js';

/**
 * Applies a batch to each ready projection in one read-store transaction: one commit, not one
 * each. When a projection fails, it waits for its retry and the others are applied again
 * without it. True when some projection moved forward.
 */
export async function applyBatch(
  store: ReadStore,
  ready: State[],
  batch: RecordedEvent[],
  hooks: BatchHooks,
  leases?: ProjectionLeases,
): Promise<boolean> {
  let progressed = false;
  const work: { state: State; pending: RecordedEvent[] }[] = [];
  for (const state of ready) {
    const pending = batch.filter((e) => Number(e.position) > state.position);
    if (pending.length === 0) continue;
    if (!pending.some((e) => handlersFor(state.projection, e.type).length > 0)) {
      // Nothing here for it: move on without a write. The checkpoint on disk may lag behind
      // (saved with its next change, or when idle); replaying from it changes nothing.
      hooks.applied(state, lastOf(pending), true);
      progressed = true;
      continue;
    }
    work.push({ state, pending });
  }
  let remaining = work;
  while (remaining.length > 0) {
    const at: { failing: State | null } = { failing: null };
    try {
      await store.transaction(async (session) => {
        for (const { state, pending } of remaining) {
          at.failing = state;
          await leases?.fence(session, state.projection.name);
          await applyIn(session, state.projection, pending);
        }
        at.failing = null;
      });
      for (const { state, pending } of remaining) hooks.applied(state, lastOf(pending), false);
      progressed = true;
      remaining = [];
    } catch (error) {
      const failing = at.failing ? [at.failing] : remaining.map((w) => w.state);
      for (const state of failing) hooks.failed(state, error);
      remaining = remaining.filter((w) => !failing.includes(w.state));
    }
  }
  return progressed;
}

const lastOf = (events: RecordedEvent[]) => Number(events[events.length - 1].position);

/**
 * The checkpoints of projections that skipped events without a write (`unsaved`), in one
 * transaction; each stays unsaved when it fails.
 */
export async function saveSkipped(
  store: ReadStore,
  states: Iterable<State>,
  leases?: ProjectionLeases,
): Promise<void> {
  const unsaved = [...states].filter((s) => s.unsaved);
  if (unsaved.length === 0) return;
  await store.transaction(async (session) => {
    for (const state of unsaved) {
      await leases?.fence(session, state.projection.name);
      await saveCheckpoint(session, state.projection, state.position);
    }
  });
  for (const state of unsaved) state.unsaved = false;
}
