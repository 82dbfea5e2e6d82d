import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
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
    run: (behind, head, signal) => {
      const started = performance.now();
      // Not the server's flags (process.execArgv): Node's defaults. The environment is the
      // server's, with its data directory as configured (an app built from a config object
      // may not have it in the environment), and no server stores.
      const env: NodeJS.ProcessEnv = { ...process.env, SLIPWAY_DATA_DIR: resolve(config.dataDir) };
      delete env.SLIPWAY_EVENTSTORE_URL;
      delete env.SLIPWAY_MONGODB_URL;
      const child = spawn(
        process.execPath,
        [entry, String(head), projectionsSignature(projections)],
        { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env },
      );
      logger.log(
        `${behind} events behind: catching up to position ${head} in a process of its own (pid ${child.pid})`,
      );
      const stop = () => child.kill('SIGTERM');
      signal.addEventListener('abort', stop, { once: true });
      return new Promise<void>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, killedBy) => {
          signal.removeEventListener('abort', stop);
          if (code !== 0) {
            return reject(new Error(`the catch-up process exited with ${code ?? killedBy}`));
          }
          const seconds = (performance.now() - started) / 1000;
          logger.log(
            signal.aborted
              ? `Catch-up process stopped after ${seconds.toFixed(1)} s`
              : `Caught up ${behind} events in ${seconds.toFixed(1)} s (${Math.round(behind / seconds)} events/s) in a process of its own`,
          );
          resolve();
        });
      });
    },
  };
}
