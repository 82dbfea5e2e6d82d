import type { EventStore, NewEvent, RecordedEvent } from './event-store.port.js';

export interface MigrationProgress {
  events: number;
  appends: number;
  lastSourcePosition: bigint;
}

export interface MigrationReport extends MigrationProgress {
  /** Empty when the target reads back the same events, in the same order, as the source. */
  mismatches: string[];
}

const BATCH = 1000;
/** The longest append made: a longer run of one stream is split (the port takes at most 10,000). */
const MAX_RUN = BATCH;

/**
 * The source's events in global order, as appends: consecutive events of one stream form one
 * append (at most MAX_RUN events), expected at the revision before the first of them
 * (`no_stream` for revision 0), so the target refuses to copy onto a stream that already holds
 * something else.
 */
export async function* migrationAppends(
  source: Pick<EventStore, 'readAll'>,
): AsyncGenerator<{ stream: string; events: RecordedEvent[] }> {
  let from = 0n;
  let pending: { stream: string; events: RecordedEvent[] } | null = null;
  for (;;) {
    const batch = await source.readAll(from, BATCH);
    for (const event of batch) {
      const last = pending?.events.at(-1);
      if (
        pending &&
        last &&
        pending.stream === event.stream &&
        event.revision === last.revision + 1n &&
        pending.events.length < MAX_RUN
      ) {
        pending.events.push(event);
      } else {
        if (pending) yield pending;
        pending = { stream: event.stream, events: [event] };
      }
      from = event.position + 1n;
    }
    if (batch.length < BATCH) break;
  }
  if (pending) yield pending;
}

/** The event as it is appended to the target: the same id, type, version, data and metadata. */
export function asNewEvent(event: RecordedEvent): NewEvent {
  return {
    id: event.id,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    recordedAt: event.recordedAt,
  };
}

/**
 * Copies every event of `source` into `target` in global order, then reads the target back and
 * compares (id, stream, revision, type, schema version, time, data, metadata, order). Positions are
 * the target's own. Written against the port: any adapter can be either side.
 */
export async function copyEvents(
  source: Pick<EventStore, 'readAll'>,
  target: Pick<EventStore, 'append' | 'readAll'>,
  onProgress?: (progress: MigrationProgress) => void,
): Promise<MigrationReport> {
  const progress: MigrationProgress = { events: 0, appends: 0, lastSourcePosition: 0n };
  for await (const { stream, events } of migrationAppends(source)) {
    const first = events[0].revision;
    await target.append(stream, events.map(asNewEvent), first === 0n ? 'no_stream' : first - 1n);
    progress.events += events.length;
    progress.appends += 1;
    progress.lastSourcePosition = events[events.length - 1].position;
    onProgress?.({ ...progress });
  }
  return { ...progress, mismatches: await compare(source, target) };
}

const identity = (e: RecordedEvent) =>
  JSON.stringify([
    e.id,
    e.stream,
    e.revision.toString(),
    e.type,
    e.schemaVersion,
    e.recordedAt,
    e.data,
    e.metadata,
  ]);

async function compare(
  source: Pick<EventStore, 'readAll'>,
  target: Pick<EventStore, 'readAll'>,
): Promise<string[]> {
  const mismatches: string[] = [];
  let from = { source: 0n, target: 0n };
  let index = 0;
  for (;;) {
    const [a, b] = await Promise.all([
      source.readAll(from.source, BATCH),
      target.readAll(from.target, BATCH),
    ]);
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (!a[i] || !b[i] || identity(a[i]) !== identity(b[i])) {
        mismatches.push(
          `event ${index + i}: source ${a[i]?.id ?? 'none'}, target ${b[i]?.id ?? 'none'}`,
        );
        if (mismatches.length >= 20) return mismatches;
      }
    }
    index += Math.max(a.length, b.length);
    if (a.length < BATCH && b.length < BATCH) return mismatches;
    from = {
      source: (a.at(-1)?.position ?? from.source - 1n) + 1n,
      target: (b.at(-1)?.position ?? from.target - 1n) + 1n,
    };
  }
}
