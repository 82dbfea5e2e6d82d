import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Loopback only, bounded in time: one autocannon run against a URL. */
export async function load(url: string, seconds: number, connections: number): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Waits for a 2xx from `url`, up to `timeoutMs` (a start on a busy machine can take 10 s). */
export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts a child that prints "listening <port>" and resolves with that port. */
export function spawnListening(
  script: string,
  env: NodeJS.ProcessEnv = {},
  /** Node's flags for the child (the server's own, for a like-for-like baseline). */
  flags: string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on('error', reject);
  });
}

export interface RunningSlipway {
  url: string;
  /** Of the server process, to read its resident memory. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * How `npm run start:built` runs the server (`VAR=value node <flags> dist/src/main.js`): its
 * Node flags and environment, read from package.json so that benchmarks measure the process
 * users start.
 */
export function serverRuntime(): { flags: string[]; env: Record<string, string> } {
  const pkg = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'),
  ) as { scripts: Record<string, string> };
  const words = pkg.scripts['start:built'].split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, value] = words.shift()!.split('=');
    env[name] = value;
  }
  return { flags: words.slice(1, words.indexOf('dist/src/main.js')), env };
}

/** The server's arguments and environment, as `npm run start:built` gives them. */
function serverLaunch(): { args: string[]; env: Record<string, string> } {
  const { flags, env } = serverRuntime();
  const main = fileURLToPath(new URL('../src/main.js', import.meta.url));
  return { args: [...flags, main], env };
}

/** The built service as its own process on a loopback port, with a throwaway data directory. */
export async function startSlipway(
  env: Record<string, string> = {},
  /** Node flags added to the server's own (a CPU profile). */
  extraFlags: string[] = [],
): Promise<RunningSlipway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-bench-'));
  const port = 31000 + Math.floor(Math.random() * 4000);
  const launch = serverLaunch();
  const child = spawn(process.execPath, [...extraFlags, ...launch.args], {
    env: {
      ...process.env,
      ...launch.env,
      PORT: String(port),
      SLIPWAY_DATA_DIR: dataDir,
      SLIPWAY_LOG_LEVEL: 'error',
      ...env,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const stopAndClean = async () => {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${url}/trpc/health`);
  } catch (error) {
    // Never leave a server running (and its data directory behind) when it did not come up.
    await stopAndClean();
    throw error;
  }
  return { url, pid: child.pid!, stop: stopAndClean };
}
