import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemMetadata } from '../src/eventstore/event-metadata.js';
import type { NewEvent } from '../src/eventstore/event-store.port.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';

export interface AppendBenchResult {
  mode: string;
  appends: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  appendsPerSecond: number;
}

function event(i: number): NewEvent {
  return {
    type: 'BenchEvent',
    schemaVersion: 1,
    data: { i, serviceId: 'svc-1', imageTag: 'registry.example/app:1.2.3' },
    metadata: systemMetadata({ requestId: 'bench', correlationId: 'bench' }),
  };
}

/** Appends with synchronous=FULL (an fsync per commit) until the time or count runs out. */
export async function benchAppend(
  batchSize: number,
  maxSeconds: number,
  maxAppends: number,
): Promise<AppendBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-bench-es-'));
  const store = new SqliteEventStore(join(dir, 'events.sqlite'));
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(maxSeconds * 1e9));
  let appends = 0;
  try {
    while (appends < maxAppends && process.hrtime.bigint() < deadline) {
      const events = Array.from({ length: batchSize }, (_, i) => event(appends * batchSize + i));
      await store.append(`bench-${appends % 50}`, events, 'any');
      appends += 1;
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    mode: batchSize === 1 ? 'single-event appends' : `${batchSize}-event batches`,
    appends,
    events: appends * batchSize,
    seconds,
    eventsPerSecond: (appends * batchSize) / seconds,
    appendsPerSecond: appends / seconds,
  };
}
