import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { copyEvents } from '../src/eventstore/migrate-events.js';
import { PostgresEventStore } from '../src/eventstore/postgres/postgres-event-store.js';
import { benchPostgres } from './postgres-stores.js';
import {
  appendHistory,
  readyService,
  runDeployment,
  startInProcess,
  templateOf,
  type Outcome,
  type Template,
} from './deployment-history.js';
import { serverRuntime } from './http-load.js';
import type { RebuildFigures } from './projection-rebuild-worker.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SERVICES = 10;
const SAMPLE_MS = 50;

export interface RebuildRun extends RebuildFigures {
  /** Highest VmRSS of the rebuilding process, read from /proc every 50 ms. */
  rssSampledPeakMb: number;
  /** Highest VmRSS of a process it started (the catch-up process), sampled alike; 0: none. */
  childRssSampledPeakMb: number;
}

export interface ProjectionRebuildResult {
  deployments: number;
  services: number;
  seedSeconds: number;
  /** The runner applies every event itself, with Node's default settings. */
  defaults: RebuildRun;
  /** ... with the server's Node flags and environment (`npm start`). */
  inServerFlags: RebuildRun;
  /** As the server rebuilds: its flags, and the catch-up handed to the catch-up process. */
  asServer: RebuildRun;
  /** The same events in PostgreSQL, rebuilt into its `rm_` tables (the server's flags); null: BENCH_POSTGRES=off. */
  onPostgres: RebuildRun | null;
}

/** VmRSS of a process in MB, or 0 once it is gone. */
function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The processes a process started (its threads' children). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((word) => word.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** Runs the worker with `args` and samples its RSS (and its children's) until it prints. */
function rebuild(
  args: string[],
  runtime: { flags: string[]; env: Record<string, string> },
): Promise<RebuildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...runtime.flags, here('./projection-rebuild-worker.js'), ...args],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...runtime.env } },
    );
    let peak = 0;
    let childPeak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(child.pid!));
      for (const pid of childrenOf(child.pid!)) childPeak = Math.max(childPeak, rssMb(pid));
    }, SAMPLE_MS);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`the rebuild worker exited with ${code}`));
      const figures = JSON.parse(out.trim().split('\n').at(-1)!) as RebuildFigures;
      resolve({ ...figures, rssSampledPeakMb: peak, childRssSampledPeakMb: childPeak });
    });
  });
}

/**
 * A store with `deployments` finished deployments over ten services (real ones through the app,
 * the rest appended as copies of them with new ids), an owner, servers and services, then
 * every projection rebuilt from position 0 into an empty read store in a separate process.
 */
export async function benchProjectionRebuild(
  deployments: number,
): Promise<ProjectionRebuildResult> {
  const started = performance.now();
  const slipway = await startInProcess();
  const plans: { templates: Record<Outcome, Template>; count: number }[] = [];
  const perService = Math.max(3, Math.floor(deployments / SERVICES));
  try {
    try {
      for (let s = 0; s < SERVICES; s++) {
        const serviceId = await readyService(slipway, `svc-${s}`);
        const runs = [];
        for (const [i, outcome] of (['succeeded', 'failed', 'cancelled'] as const).entries()) {
          runs.push(await runDeployment(slipway, serviceId, i + 1, outcome));
        }
        plans.push({
          templates: {
            succeeded: await templateOf(slipway.events, runs[0]),
            failed: await templateOf(slipway.events, runs[1]),
            cancelled: await templateOf(slipway.events, runs[2]),
          },
          count: perService - 3,
        });
      }
    } finally {
      await slipway.close(true);
    }
    // The app is closed: the rest of the history goes straight into its event store.
    const eventsFile = join(slipway.dataDir, 'events.sqlite');
    const store = new SqliteEventStore(eventsFile);
    for (const plan of plans) await appendHistory(store, plan.templates, plan.count, 4);
    await store.close();
    const seedSeconds = (performance.now() - started) / 1000;
    const inProcess = (name: string) => ['in-process', eventsFile, join(slipway.dataDir, name)];
    const defaults = await rebuild(inProcess('rebuilt-defaults.sqlite'), { flags: [], env: {} });
    const inServerFlags = await rebuild(inProcess('rebuilt-server-flags.sqlite'), serverRuntime());
    // The server's own read store, emptied: rebuilt into the files the server would use.
    for (const suffix of ['', '-wal', '-shm']) {
      rmSync(join(slipway.dataDir, `read-models.sqlite${suffix}`), { force: true });
    }
    const server = serverRuntime();
    const asServer = await rebuild(['as-server'], {
      flags: server.flags,
      env: { ...server.env, SLIPWAY_DATA_DIR: slipway.dataDir },
    });
    const onPostgres =
      process.env.BENCH_POSTGRES === 'off' ? null : await rebuildOnPostgres(eventsFile);
    return {
      deployments: perService * SERVICES,
      services: SERVICES,
      seedSeconds,
      defaults,
      inServerFlags,
      asServer,
      onPostgres,
    };
  } finally {
    rmSync(slipway.dataDir, { recursive: true, force: true });
  }
}

/** The seeded events copied into a PostgreSQL database (not timed), then rebuilt from there. */
async function rebuildOnPostgres(eventsFile: string): Promise<RebuildRun> {
  const postgres = await benchPostgres();
  try {
    const { SLIPWAY_POSTGRES_URL: url } = await postgres.database();
    const source = new SqliteEventStore(eventsFile);
    const target = await PostgresEventStore.connect(url);
    try {
      await copyEvents(source, target);
    } finally {
      await source.close();
      await target.close();
    }
    return await rebuild(['postgres', url], serverRuntime());
  } finally {
    await postgres.stop();
  }
}

/** Runnable alone: `npm run build && node dist/bench/projection-rebuild.bench.js`. */
export function printProjectionRebuild(r: ProjectionRebuildResult): void {
  const f = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d });
  const line = (label: string, run: RebuildRun) => {
    const perSecond = run.events / run.seconds;
    console.log(
      `  ${label}: rebuilt in ${f(run.seconds, 2)} s = ${f(perSecond, 0)} events/s (goal 50,000/s: ${f(perSecond / 50_000, 2)} x)`,
    );
    console.log(
      `    RSS ${f(run.rssBeforeMb)} MB before, peak ${f(run.rssSampledPeakMb)} MB (sampled every ${SAMPLE_MS} ms; high-water mark ${f(run.rssHighWaterMb)} MB), ${f(run.rssAfterMb)} MB at the end`,
    );
    if (run.childRssSampledPeakMb > 0) {
      console.log(
        `    catch-up process: RSS peak ${f(run.childRssSampledPeakMb)} MB (sampled alike; gone at the end)`,
      );
    }
  };
  console.log(
    `\nprojection rebuild from position 0 (${r.defaults.projections} projections, empty read store, own process; BENCH_DEPLOYMENTS=${r.deployments})`,
  );
  console.log(
    `  store: ${f(r.defaults.events)} events (${f(r.deployments)} finished deployments on ${r.services} services), seeded in ${f(r.seedSeconds)} s`,
  );
  const flags = serverRuntime().flags.join(' ');
  line("in one process, Node's defaults", r.defaults);
  line(`in one process, the server's flags (${flags})`, r.inServerFlags);
  line(
    `as the server: its flags, the catch-up in the catch-up process (Node's defaults)`,
    r.asServer,
  );
  if (r.onPostgres) line("on PostgreSQL, in one process, the server's flags", r.onPostgres);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printProjectionRebuild(
    await benchProjectionRebuild(Number(process.env.BENCH_DEPLOYMENTS ?? 10_000)),
  );
}
