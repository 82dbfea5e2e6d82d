import type { EventStore } from '../eventstore/event-store.port.js';
import type { CheckpointFields } from '../events/audit.events.js';

const BATCH = 1000;

/**
 * The store position to read the global order from to continue the chain after `anchor` (a
 * checkpoint), or from the beginning without one. The chain counts places (the n-th event), the
 * store reads by position: on a dense store they are the same number; on a sparse one the
 * checkpoint names its last event by stream and revision, which any copy of the store keeps.
 * Checkpoints sealed before they named it are found by counting, once, from the beginning.
 */
export async function positionAfter(
  events: EventStore,
  anchor: CheckpointFields | null | undefined,
): Promise<bigint> {
  if (!anchor) return 1n;
  if (events.positions === 'dense') return BigInt(anchor.toPosition) + 1n;
  if (anchor.toStream !== undefined && anchor.toRevision !== undefined) {
    const [event] = await events.readStream(anchor.toStream, {
      fromRevision: BigInt(anchor.toRevision),
      limit: 1,
    });
    if (event && event.revision === BigInt(anchor.toRevision)) return event.position + 1n;
  }
  return positionAfterCounting(events, anchor.toPosition);
}

/** After the `place`-th event; past the last one when there are fewer (verification says so). */
async function positionAfterCounting(events: EventStore, place: number): Promise<bigint> {
  if (place < 1) return 1n;
  let from = 1n;
  let seen = 0;
  for (;;) {
    const batch = await events.readAll(from, BATCH);
    if (batch.length === 0) return from;
    if (seen + batch.length >= place) return batch[place - seen - 1].position + 1n;
    seen += batch.length;
    from = batch[batch.length - 1].position + 1n;
  }
}
