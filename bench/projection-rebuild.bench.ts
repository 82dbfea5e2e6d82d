import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import {
  appendHistory,
  readyService,
  runDeployment,
  startInProcess,
  templateOf,
  type Outcome,
  type Template,
} from './deployment-history.js';
import type { RebuildFigures } from './projection-rebuild-worker.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SERVICES = 10;
const SAMPLE_MS = 50;

export interface ProjectionRebuildResult extends RebuildFigures {
  deployments: number;
  services: number;
  /** Highest VmRSS of the rebuilding process, read from /proc every 50 ms. */
  rssSampledPeakMb: number;
  seedSeconds: number;
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

/** Runs the worker on the store and samples its RSS until it prints its figures. */
function rebuild(eventsFile: string, readsFile: string): Promise<[RebuildFigures, number]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [here('./projection-rebuild-worker.js'), eventsFile, readsFile],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), SAMPLE_MS);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`the rebuild worker exited with ${code}`));
      resolve([JSON.parse(out.trim().split('\n').at(-1)!) as RebuildFigures, peak]);
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
    const [figures, rssSampledPeakMb] = await rebuild(
      eventsFile,
      join(slipway.dataDir, 'rebuilt-read-models.sqlite'),
    );
    return {
      ...figures,
      deployments: perService * SERVICES,
      services: SERVICES,
      rssSampledPeakMb,
      seedSeconds,
    };
  } finally {
    rmSync(slipway.dataDir, { recursive: true, force: true });
  }
}

/** Runnable alone: `npm run build && node dist/bench/projection-rebuild.bench.js`. */
export function printProjectionRebuild(r: ProjectionRebuildResult): void {
  const f = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d });
  const perSecond = r.events / r.seconds;
  console.log(
    `\nprojection rebuild from position 0 (${r.projections} projections, empty read store, own process; BENCH_DEPLOYMENTS=${r.deployments})`,
  );
  console.log(
    `  store: ${f(r.events)} events (${f(r.deployments)} finished deployments on ${r.services} services), seeded in ${f(r.seedSeconds)} s`,
  );
  console.log(
    `  rebuilt in ${f(r.seconds, 2)} s = ${f(perSecond, 0)} events/s (goal 50,000/s: ${f(perSecond / 50_000, 2)} x)`,
  );
  console.log(
    `  RSS ${f(r.rssBeforeMb)} MB before, peak ${f(r.rssSampledPeakMb)} MB (sampled every ${SAMPLE_MS} ms; high-water mark ${f(r.rssHighWaterMb)} MB), ${f(r.rssAfterMb)} MB at the end`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printProjectionRebuild(
    await benchProjectionRebuild(Number(process.env.BENCH_DEPLOYMENTS ?? 10_000)),
  );
}
