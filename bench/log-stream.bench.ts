import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSse } from '../src/cli/sse-reader.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { DeploymentLogStore } from '../src/deployments/deployment-log-store.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import { rpc } from './bench-api.js';
import { readyService, startInProcess, type InProcessSlipway } from './deployment-history.js';

export interface LogStreamResult {
  mode: 'in-process' | 'cross-process';
  lines: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/**
 * Time from a log line appended to the deployment log store (as the runner's LogWriter flushes
 * it: committed, then announced) to an SSE client of GET /api/v1/deployments/{id}/logs/stream
 * having parsed it. Client and server share this process and loopback. One line per append,
 * the next appended once the previous one is committed and the event loop has had a turn.
 */
async function measure(
  slipway: InProcessSlipway,
  store: DeploymentLogStore,
  deploymentId: string,
  lines: number,
): Promise<number[]> {
  const sentAt = new Float64Array(lines + 1);
  const latencies: number[] = [];
  const abort = new AbortController();
  const res = await fetch(`${slipway.url}/api/v1/deployments/${deploymentId}/logs/stream`, {
    headers: { Cookie: slipway.cookie, Accept: 'text/event-stream' },
    signal: abort.signal,
  });
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((r) => (resolveDone = r));
  const reading = readSse(res, {
    onEvent: (e) => {
      if (e.event !== 'line') return;
      const n = Number(e.id);
      latencies.push(performance.now() - sentAt[n]);
      if (n === lines) resolveDone();
    },
  }).catch(() => undefined);
  for (let line = 1; line <= lines; line++) {
    // The runner appends from SSH data events; the SQLite driver is synchronous, so without a
    // turn of the event loop between appends no socket would be written until the last one.
    await new Promise((r) => setImmediate(r));
    sentAt[line] = performance.now();
    await store.append([
      {
        deploymentId,
        line,
        step: 'pull',
        stream: 'stdout',
        text: `bench line ${line}`,
        at: new Date().toISOString(),
      },
    ]);
  }
  await done;
  abort.abort();
  await reading;
  return latencies;
}

export async function benchLogStream(
  lines: number,
  crossLines: number,
): Promise<LogStreamResult[]> {
  const slipway = await startInProcess();
  try {
    const config = slipway.app.get<AppConfig>(APP_CONFIG);
    const serviceId = await readyService(slipway, 'logs');
    // The runner stays stopped (the deployment stays queued); the stream reads the log store.
    const deploy = async () =>
      (
        await rpc<{ deploymentId: string }>(slipway, 'triggerDeploy', {
          serviceId,
          imageTag: 'ghcr.io/acme/api:1.0.0',
        })
      ).deploymentId;
    const results: LogStreamResult[] = [];
    const summarize = (mode: LogStreamResult['mode'], xs: number[]) => ({
      mode,
      lines: xs.length,
      p50Ms: percentile(xs, 50),
      p99Ms: percentile(xs, 99),
      maxMs: Math.max(...xs),
    });
    // As with SLIPWAY_RUNNER=embedded: the store's in-process notification wakes the stream.
    config.runner.mode = 'embedded';
    const own = slipway.app.get(DeploymentLogStore);
    results.push(summarize('in-process', await measure(slipway, own, await deploy(), lines)));
    // As with SLIPWAY_RUNNER=off and the runner in a worker: the lines are appended through a
    // connection of its own to the same file; the stream hears of them through the file's change
    // notifications (the kernel reports another connection's writes as another process's).
    config.runner.mode = 'off';
    const other = new SqliteReadStore(join(slipway.dataDir, 'primary.sqlite'), { durable: true });
    try {
      const worker = new DeploymentLogStore(other);
      const id = await deploy();
      results.push(summarize('cross-process', await measure(slipway, worker, id, crossLines)));
    } finally {
      await other.close();
    }
    return results;
  } finally {
    await slipway.close();
  }
}

export function printLogStream(results: LogStreamResult[], pollMs: number): void {
  console.log(
    '\nlog line appended → SSE client (GET /api/v1/deployments/{id}/logs/stream, loopback)',
  );
  for (const r of results) {
    const note =
      r.mode === 'in-process' ? '' : ` (file change notifications; fallback poll ${pollMs} ms)`;
    console.log(
      `  ${r.mode.padEnd(19)} ${String(r.lines).padStart(6)} lines: p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, max ${r.maxMs.toFixed(2)} ms${note}`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await benchLogStream(
    Number(process.env.BENCH_LOG_LINES ?? 10_000),
    Number(process.env.BENCH_LOG_CROSS_LINES ?? 1_000),
  );
  printLogStream(results, 250);
}
