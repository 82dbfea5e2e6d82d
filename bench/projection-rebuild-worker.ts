import { readFileSync } from 'node:fs';
import { applicationProjections } from '../projections/index.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';

/**
 * Child process of the projection-rebuild benchmark, so that its RSS is the rebuild's alone:
 * every application projection, from position 0 of the event store given as the first
 * argument into the fresh read store given as the second, with the options the app uses
 * (batches of 500). Prints one JSON line with the figures.
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

const [eventsFile, readsFile] = process.argv.slice(2);
const events = new SqliteEventStore(eventsFile);
const reads = new SqliteReadStore(readsFile);
let failed: (error: unknown) => void = () => undefined;
const failure = new Promise<never>((_, reject) => (failed = reject));
failure.catch(() => undefined); // handled by the race below, even if it fails before it
const runner = new ProjectionRunner(events, reads, applicationProjections, {
  pollIntervalMs: 50,
  waitTimeoutMs: 3_600_000,
  // A projection that fails would be retried for ever: the benchmark stops at once instead.
  onError: (name, error) => failed(new Error(`projection ${name} failed`, { cause: error })),
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
  // Positions are dense on SQLite, so the head position is the number of events.
  events: Number(head),
  projections: applicationProjections.length,
  seconds,
  rssBeforeMb,
  rssAfterMb,
  rssHighWaterMb: kib('VmHWM'),
};
console.log(JSON.stringify(figures));
