import { readFileSync } from 'node:fs';
import { applicationProjections } from '../projections/index.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { catchUpProcess } from '../src/app/catch-up-process.js';
import { embeddedStoreFiles } from '../src/app/open-stores.js';
import { loadConfig } from '../src/config/app-config.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import type { EventStore } from '../src/eventstore/event-store.port.js';
import type { ReadStore } from '../src/readstore/read-store.port.js';

/**
 * Child process of the projection-rebuild benchmark, so that its RSS is the rebuild's alone:
 * every application projection, from position 0 of the event store into a fresh read store,
 * with the options the app uses (batches of 500). Prints one JSON line with the figures.
 *
 * - `in-process <events file> <read store file>`: the runner applies every event itself;
 * - `as-server`: the stores of SLIPWAY_DATA_DIR, and the runner as the server builds it: far
 *   behind, it hands the catch-up to the catch-up process (dist/src/catch-up.js) and goes on;
 * - `postgres <url>`: the events of that PostgreSQL database into its empty `rm_` tables.
 */
export interface RebuildFigures {
  events: number;
  projections: number;
  seconds: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  /** VmHWM: the kernel's high-water mark of the resident set over the process's life. */
  rssHighWaterMb: number;
}

const kib = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) /
  1024;

const [mode, ...files] = process.argv.slice(2);
const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };
const config = loadConfig();
const elsewhere =
  mode === 'as-server' ? catchUpProcess(config, applicationProjections, silent) : null;
if (mode === 'as-server' && !elsewhere) throw new Error('no catch-up process: build first');
const embedded = embeddedStoreFiles(config);
let events: EventStore;
let reads: ReadStore;
if (mode === 'postgres') {
  const { PostgresEventStore } = await import('../src/eventstore/postgres/postgres-event-store.js');
  const { PostgresReadStore } = await import('../src/readstore/postgres/postgres-read-store.js');
  events = await PostgresEventStore.connect(files[0]);
  reads = await PostgresReadStore.connect(files[0]);
} else {
  events = new SqliteEventStore(elsewhere ? embedded.events : files[0]);
  reads = new SqliteReadStore(elsewhere ? embedded.readModels : files[1]);
}
let failed: (error: unknown) => void = () => undefined;
const failure = new Promise<never>((_, reject) => (failed = reject));
failure.catch(() => undefined); // handled by the race below, even if it fails before it
const runner = new ProjectionRunner(events, reads, applicationProjections, {
  pollIntervalMs: 50,
  waitTimeoutMs: 3_600_000,
  // A projection that fails would be retried for ever: the benchmark stops at once instead.
  onError: (name, error) => failed(new Error(`projection ${name} failed`, { cause: error })),
  ...(elsewhere ? { catchUpElsewhere: elsewhere } : {}),
});
const head = await events.headPosition();
const rssBeforeMb = kib('VmRSS');
const started = performance.now();
await runner.start();
await Promise.race([runner.waitFor(head), failure]);
const rssAfterMb = kib('VmRSS');
// Stopping ends the catch-up: the write-ahead log grown for the bulk load is checkpointed into the
// file and truncated. The rebuild is timed to there, not to the last event applied.
await runner.stop();
const seconds = (performance.now() - started) / 1000;
await events.close();
await reads.close();
const figures: RebuildFigures = {
  // Positions are dense on SQLite and PostgreSQL, so the head position is the number of events.
  events: Number(head),
  projections: applicationProjections.length,
  seconds,
  rssBeforeMb,
  rssAfterMb,
  rssHighWaterMb: kib('VmHWM'),
};
console.log(JSON.stringify(figures));
