/**
 * The projections' catch-up as a process of its own, started by the server when they are far
 * behind (see app/catch-up-process.ts), with Node's default memory settings. It applies every
 * event up to the position it is given into the server's read store, through the same runner
 * (documents and checkpoints commit together), then exits; the server goes on from those
 * checkpoints. Arguments: the position, and the server's projections as `name@version,...`.
 *
 * Exit codes (CATCH_UP_EXIT): 0 once there; 3 when stopped before (SIGTERM, SIGINT, or the
 * server gone: its channel closed) after committing what was in flight; 1 when a projection
 * failed or the store or projections are not the server's; 2 on a bad configuration.
 */

// Heard from the first moment, before the modules below load (a stop may come that early).
let stopAsked = false;
let askStop: () => void = () => undefined;
const stopRequested = new Promise<void>((resolve) => (askStop = resolve)).then(
  () => void (stopAsked = true),
);
process.once('SIGTERM', () => askStop());
process.once('SIGINT', () => askStop());
process.once('disconnect', () => askStop());
// Gone before the handler above was listening: stop all the same.
if (process.send && !process.connected) askStop();

const [{ applicationProjections }, { ProjectionRunner }, catchUp, stores, logText, appConfig] =
  await Promise.all([
    import('../projections/index.js'),
    import('../projections/projection-runner.js'),
    import('./app/catch-up-process.js'),
    import('./app/open-stores.js'),
    import('./common/log-text.js'),
    import('./config/app-config.js'),
  ]);
const { CATCH_UP_EXIT } = catchUp;

function fail(message: string, code: number): never {
  console.error(`Catch-up process: ${message}`);
  process.exit(code);
}

const [headArgument, signature] = process.argv.slice(2);
if (!/^\d{1,15}$/.test(headArgument ?? '')) {
  fail('the position argument must be a number', CATCH_UP_EXIT.failed);
}
if (signature !== catchUp.projectionsSignature(applicationProjections)) {
  fail('the server runs other projections or versions than this build', CATCH_UP_EXIT.failed);
}
let config;
try {
  config = appConfig.loadConfig();
} catch (error) {
  if (error instanceof appConfig.ConfigError) fail(error.message, CATCH_UP_EXIT.config);
  throw error;
}
// The server's own files: what this process writes is its user's only (see private-files.ts).
process.umask(0o077);
if (stopAsked) process.exit(CATCH_UP_EXIT.stopped);
const events = await stores.openEventStore(config, { watch: false });
// A store that ends before the position is not the server's: waiting would never end.
if ((await events.headPosition()) < BigInt(headArgument)) {
  await events.close();
  fail(
    `the event store in ${logText.logText(config.dataDir)} ends before position ${headArgument}`,
    CATCH_UP_EXIT.failed,
  );
}
const reads = await stores.openReadStore(config);
let failed: (error: Error) => void = () => undefined;
const failure = new Promise<never>((_, reject) => (failed = reject));
failure.catch(() => undefined); // raced below, even when it comes first
const runner = new ProjectionRunner(events, reads, applicationProjections, {
  pollIntervalMs: config.projectionPollMs,
  // No time limit: the server waits for this process, not for an answer.
  waitTimeoutMs: 2 ** 31 - 1,
  // The server retries a failing projection itself, from the checkpoints committed here.
  onError: (name, error) =>
    failed(new Error(`projection ${name} failed: ${logText.errorForLog(error)}`)),
});
await runner.start();
let code: number = CATCH_UP_EXIT.done;
try {
  await Promise.race([runner.waitFor(BigInt(headArgument)), failure, stopRequested]);
  if (stopAsked) code = CATCH_UP_EXIT.stopped;
} catch (error) {
  console.error(`Catch-up process: ${error instanceof Error ? error.message : String(error)}`);
  code = CATCH_UP_EXIT.failed;
}
// Commits what is in flight; the server goes on from the checkpoints.
await runner.stop();
await events.close();
await reads.close();
process.exit(code);
