import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real Docker engine of the tests (`scripts/docker-engine.sh`): dockerd started by hand on
 * its own socket, Compose v2 as a CLI plugin, a registry on 127.0.0.1 holding
 * `<registry>/acme/api` tagged 1.0.0 and 1.1.0 (busybox httpd with a health check answering
 * `/version` and `/health`), `exits` (exits 3 at start) and `slow` (healthy after about 4 s).
 */
export interface DockerEngine {
  /** `unix://...` socket of the engine. */
  host: string;
  /** DOCKER_CONFIG: holds the compose plugin in cli-plugins/. */
  config: string;
  /** `127.0.0.1:<port>` of the loopback registry. */
  registry: string;
  /** Runs Debian's docker client against the engine; returns stdout. */
  docker(args: string[]): string;
  /** Removes every container of a compose project (a suite's clean-up). */
  removeProject(project: string): void;
  /** `<name> <image>` of each running container of a compose project (and service). */
  running(project: string, service?: string): string[];
}

export const SCRIPT = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../scripts/docker-engine.sh',
);

/** Another engine on this host: its state directory and its registry's port. */
export interface SecondEngine {
  dir: string;
  registryPort: number;
}

const secondEnv = (second: SecondEngine) => ({
  SLIPWAY_DOCKER_DIR: second.dir,
  SLIPWAY_DOCKER_REGISTRY_PORT: String(second.registryPort),
});

/** Stops a second engine (started with this run's id, so only if this run started it). */
export function stopSecondEngine(second: SecondEngine): void {
  const owner = process.env[RUN_ID_VARIABLE];
  execFileSync('bash', [SCRIPT, 'stop', ...(owner ? ['--owner', owner] : [])], {
    stdio: 'inherit',
    timeout: 60_000,
    env: { ...process.env, ...secondEnv(second) },
  });
}

/** The id under which this Jest run starts the engine (docker-engine.global-setup.mjs names it). */
export const RUN_ID_VARIABLE = 'SLIPWAY_DOCKER_RUN';

/**
 * Starts the engine and registry unless they run already, builds and pushes the images (a few
 * seconds) and reads the env file. An engine this run started is stopped by pid in the global
 * teardown; one started by hand is left running. `second` starts another engine beside it (its
 * own directory, socket and registry), as a build server's: the caller stops it
 * (`stopSecondEngine`).
 */
export function dockerEngine(second?: SecondEngine): DockerEngine {
  const owner = process.env[RUN_ID_VARIABLE];
  const envFile = execFileSync('bash', [SCRIPT, 'start', ...(owner ? ['--owner', owner] : [])], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 10 * 60_000,
    env: second ? { ...process.env, ...secondEnv(second) } : process.env,
  }).trim();
  const env = Object.fromEntries(
    readFileSync(envFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const engine = {
    host: env.DOCKER_HOST,
    config: env.DOCKER_CONFIG,
    registry: env.SLIPWAY_TEST_REGISTRY,
  };
  const docker = (args: string[]) =>
    execFileSync('/usr/bin/docker', args, {
      encoding: 'utf8',
      env: { ...process.env, DOCKER_HOST: engine.host, DOCKER_CONFIG: engine.config },
      timeout: 60_000,
    });
  return {
    ...engine,
    docker,
    removeProject(project) {
      const ids = docker(['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`])
        .split('\n')
        .filter(Boolean);
      if (ids.length) docker(['rm', '-f', ...ids]);
    },
    running(project, service) {
      const filters = [`label=com.docker.compose.project=${project}`];
      if (service) filters.push(`label=com.docker.compose.service=${service}`);
      return docker([
        'ps',
        ...filters.flatMap((f) => ['--filter', f]),
        '--format',
        '{{.Names}} {{.Image}}',
      ])
        .trim()
        .split('\n')
        .filter(Boolean);
    },
  };
}
