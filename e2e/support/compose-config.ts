import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';

const DIR = process.env.SLIPWAY_DOCKER_DIR ?? '/tmp/slipway-docker';
/** The Docker CLI configuration holding the Compose plugin the test engine script installed. */
export const DOCKER_CONFIG_DIR = join(DIR, 'config');

/**
 * Compose's own reading of a file (`docker compose config --format json`), run in `dir` with
 * only `env` as its environment: reading a file needs no engine, so the socket is an empty path.
 */
export function composeConfig(
  dir: string,
  args: string[],
  env: Record<string, string>,
): SpawnSyncReturns<string> {
  return spawnSync(
    '/usr/bin/docker',
    ['compose', '-p', 'p', ...args, 'config', '--format', 'json'],
    {
      encoding: 'utf8',
      cwd: dir,
      timeout: 30_000,
      env: {
        PATH: process.env.PATH,
        DOCKER_CONFIG: DOCKER_CONFIG_DIR,
        DOCKER_HOST: 'unix:///nonexistent',
        ...env,
      },
    },
  );
}
