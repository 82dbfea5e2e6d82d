import { applicationProjections } from '../projections/index.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { projectionsSignature } from './app/catch-up-process.js';
import { openEventStore, openReadStore } from './app/open-stores.js';
import { errorForLog } from './common/log-text.js';
import { ConfigError, loadConfig } from './config/app-config.js';

/**
 * The projections' catch-up as a process of its own, started by the server when they are far
 * behind (see app/catch-up-process.ts), with Node's default memory settings. It applies every
 * event up to the position it is given into the server's read store, through the same runner
 * (documents and checkpoints commit together), then exits; the server goes on from those
 * checkpoints. Arguments: the position, and the server's projections as `name@version,...`.
 *
 * Exits 0 once there or stopped (SIGTERM, or the server gone: its channel closed), 1 when a
 * projection failed or the projections differ from the server's, 2 on a bad configuration.
 */
const [headArgument, signature] = process.argv.slice(2);
function fail(message: string, code: number): never {
  console.error(`Catch-up process: ${message}`);
  process.exit(code);
}
if (!/^\d{1,15}$/.test(headArgument ?? '')) fail('the position argument must be a number', 1);
if (signature !== projectionsSignature(applicationProjections)) {
  fail('the server runs other projections or versions than this build', 1);
}
let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message, 2);
  throw error;
}
const events = await openEventStore(config, { watch: false });
// A store that ends before the position is not the server's: waiting would never end.
if ((await events.headPosition()) < BigInt(headArgument)) {
  await events.close();
  fail(`the event store in ${config.dataDir} ends before position ${headArgument}`, 1);
}
const reads = await openReadStore(config);
let failed: (error: Error) => void = () => undefined;
const failure = new Promise<never>((_, reject) => (failed = reject));
failure.catch(() => undefined); // raced below, even when it comes first
const runner = new ProjectionRunner(events, reads, applicationProjections, {
  pollIntervalMs: config.projectionPollMs,
  // No time limit: the server waits for this process, not for an answer.
  waitTimeoutMs: 2 ** 31 - 1,
  // The server retries a failing projection itself, from the checkpoints committed here.
  onError: (name, error) => failed(new Error(`projection ${name} failed: ${errorForLog(error)}`)),
});
// Asked to stop (SIGTERM), or the server is gone (its channel closed, or closed already).
let stopAsked = false;
let askStop: () => void = () => undefined;
const stopRequested = new Promise<void>((resolve) => (askStop = resolve)).then(
  () => void (stopAsked = true),
);
process.once('SIGTERM', () => askStop());
process.once('disconnect', () => askStop());
if (process.send && !process.connected) askStop();
await runner.start();
let code = 0;
try {
  await Promise.race([runner.waitFor(BigInt(headArgument)), failure, stopRequested]);
} catch (error) {
  console.error(`Catch-up process: ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
}
// Commits what is in flight; the server goes on from the checkpoints.
await runner.stop();
await events.close();
await reads.close();
process.exit(stopAsked ? 0 : code);
