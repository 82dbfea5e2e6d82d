import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoggerService } from '@nestjs/common';
import type { CatchUpElsewhere } from '../../projections/projection-runner.js';
import type { Projection } from '../../projections/projection.js';
import type { AppConfig } from '../config/app-config.js';
import { embeddedStores } from './open-stores.js';

/**
 * The compiled entry of the catch-up process (`dist/src/catch-up.js`); null when the app runs
 * from its TypeScript sources (the in-process tests), where there is none to start.
 */
export function catchUpEntry(): string | null {
  const entry = fileURLToPath(new URL('../catch-up.js', import.meta.url));
  return existsSync(entry) ? entry : null;
}

/** How the catch-up process ends: its exit codes. */
export const CATCH_UP_EXIT = { done: 0, failed: 1, config: 2, stopped: 3 } as const;

/** Names and versions of the projections: the catch-up process refuses to run others. */
export function projectionsSignature(projections: Projection[]): string {
  return projections.map((p) => `${p.name}@${p.version}`).join(',');
}

/**
 * Where a server far behind catches its projections up (see src/catch-up.ts): a process of its
 * own, started with Node's default memory settings. The server runs with a small young
 * generation (`--max-semi-space-size=2 --optimize-for-size`, for its idle size), in which a
 * rebuild spends a third of its time collecting garbage. Only on the embedded SQLite pair with
 * one process (under leases each batch is fenced by the lease), and only when the compiled
 * entry exists; null otherwise, and the runner catches up itself.
 */
export function catchUpProcess(
  config: AppConfig,
  projections: Projection[],
  logger: LoggerService,
  entry: string | null = catchUpEntry(),
): CatchUpElsewhere | null {
  const minEvents = config.projectionCatchUpProcessEvents;
  if (!entry || minEvents === 0 || !embeddedStores(config) || config.storage.replicas > 1) {
    return null;
  }
  return {
    minEvents,
    run: (behind, head, signal) =>
      signal.aborted
        ? Promise.resolve()
        : runProcess(entry, [String(head), projectionsSignature(projections)], config, signal, {
            started: (pid) =>
              logger.log(
                `${behind} events behind: catching up to position ${head} in a process of its own (pid ${pid})`,
              ),
            done: (seconds) =>
              logger.log(
                `Caught up ${behind} events in ${seconds.toFixed(1)} s (${Math.round(behind / seconds)} events/s) in a process of its own`,
              ),
            stopped: (seconds) =>
              logger.log(`Catch-up process stopped after ${seconds.toFixed(1)} s, before the head`),
          }),
  };
}

/** How long a stopped catch-up process may take to commit and exit before it is killed. */
const STOP_GRACE_MS = 30_000;

function runProcess(
  entry: string,
  args: string[],
  config: AppConfig,
  signal: AbortSignal,
  report: {
    started: (pid: number | undefined) => void;
    done: (seconds: number) => void;
    stopped: (seconds: number) => void;
  },
): Promise<void> {
  const started = performance.now();
  // Not the server's flags (process.execArgv), nor NODE_OPTIONS: Node's defaults. Nor the
  // server's environment, secrets and all: the projections need only their files, named by the
  // server's configuration (an app built from a config object may not have them in its
  // environment).
  const env = {
    SLIPWAY_DATA_DIR: resolvePath(config.dataDir),
    SLIPWAY_PROJECTION_POLL_MS: String(config.projectionPollMs),
  };
  const child = spawn(process.execPath, [entry, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env,
  });
  report.started(child.pid);
  let kill: NodeJS.Timeout | null = null;
  const stop = () => {
    child.kill('SIGTERM');
    kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    kill.unref();
  };
  signal.addEventListener('abort', stop, { once: true });
  return new Promise<void>((resolve, reject) => {
    // Not started at all; a failed kill leaves it running, and its exit is still awaited.
    child.once('error', (error) => child.pid === undefined && reject(error));
    child.once('exit', (code, killedBy) => {
      signal.removeEventListener('abort', stop);
      if (kill) clearTimeout(kill);
      const seconds = (performance.now() - started) / 1000;
      if (code === CATCH_UP_EXIT.done) return resolve(report.done(seconds));
      if (code === CATCH_UP_EXIT.stopped || signal.aborted) return resolve(report.stopped(seconds));
      reject(new Error(`the catch-up process exited with ${code ?? killedBy}`));
    });
  });
}
