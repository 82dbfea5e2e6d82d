import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import {
  containerSeries,
  hourly,
  METRIC_SAMPLES,
  MetricSamples,
  serverSeries,
  type MetricSampleDoc,
  type Sample,
} from '../src/runner/metrics/metric-samples.js';

export interface MetricsHistoryRun {
  days: number;
  /** Documents in metric_samples: two days of readings and `days` of hourly means. */
  documents: number;
  /** One collection pass recorded: a server and its containers, median. */
  recordMs: number;
  /** A server's last 6 hours as read, and its last 7 days of hourly means, median. */
  read6hMs: number;
  read7dMs: number;
}

export interface MetricsBenchResult {
  containers: number;
  runs: MetricsHistoryRun[];
}

const INTERVAL_MS = 60_000;
const HOUR = 3_600_000;

function sample(series: string, serverId: string, container: string | null, i: number): Sample {
  return {
    series,
    serverId,
    serviceId: container ? 's-1' : null,
    container,
    values: { cpuPercent: (i * 7) % 100, memoryPercent: 40, memoryBytes: 2e8, restarts: 0 },
    state: container ? 'running' : null,
    health: null,
  };
}

const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;

async function timed(times: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const spent: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run(i);
    spent.push(performance.now() - start);
  }
  return median(spent);
}

/**
 * The metrics history at `days` of age, on the embedded store: two days of readings a minute
 * apart (what SLIPWAY_METRICS_RAW_HOURS keeps by default) and `days` of hourly means, for a
 * server and `containers` containers; then what a collection pass costs to record and what the
 * charts cost to read, so the cost's growth with history shows.
 */
async function history(days: number, containers: number): Promise<MetricsHistoryRun> {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-metrics-bench-'));
  const store = new SqliteReadStore(join(dir, 'primary.sqlite'), { durable: true });
  try {
    await store.ensureCollection(METRIC_SAMPLES);
    const series = [
      { id: serverSeries('srv-1'), container: null },
      ...Array.from({ length: containers }, (_, c) => ({
        id: containerSeries('s-1', `api-web-${c + 1}`),
        container: `api-web-${c + 1}`,
      })),
    ];
    const now = Date.parse('2026-11-29T12:00:00Z');
    let documents = 0;
    await store.transaction(async (session) => {
      const samples = session.collection<MetricSampleDoc>(METRIC_SAMPLES.name);
      for (const s of series) {
        for (let t = now - 48 * HOUR, i = 0; t < now; t += INTERVAL_MS, i++) {
          const slot = Math.floor(t / INTERVAL_MS);
          const one = sample(s.id, 'srv-1', s.container, i);
          await samples.put({
            id: `${s.id}@${slot}`,
            ...one,
            resolution: 'raw',
            at: new Date(t).toISOString(),
            max: one.values,
            count: 1,
            counts: {},
            lastSlot: slot,
          });
          documents++;
        }
        for (let t = now - days * 24 * HOUR, i = 0; t < now; t += HOUR, i++) {
          const at = new Date(t).toISOString();
          await samples.put(
            hourly(null, `${s.id}#${at}`, at, sample(s.id, 'srv-1', s.container, i), 0),
          );
          documents++;
        }
      }
    });
    const metrics = new MetricSamples(store);
    const pass = (i: number) => {
      const at = new Date(now + (i + 1) * INTERVAL_MS);
      return metrics.record(
        series.map((s) => sample(s.id, 'srv-1', s.container, i)),
        at,
        Math.floor(at.getTime() / INTERVAL_MS),
      );
    };
    await pass(0);
    const recordMs = await timed(20, (i) => pass(i + 1));
    const server = serverSeries('srv-1');
    const read6hMs = await timed(20, () =>
      metrics.read(server, 'raw', new Date(now - 6 * HOUR), 1440),
    );
    const read7dMs = await timed(20, () =>
      metrics.read(server, 'hour', new Date(now - 7 * 24 * HOUR), 1440),
    );
    return { days, documents, recordMs, read6hMs, read7dMs };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchMetrics(
  days: number[] = [2, 30, 90],
  containers = 10,
): Promise<MetricsBenchResult> {
  const runs: MetricsHistoryRun[] = [];
  for (const d of days) runs.push(await history(d, containers));
  return { containers, runs };
}

export function printMetrics(result: MetricsBenchResult): void {
  console.log(`\nmetrics history, a server and ${result.containers} containers, SQLite`);
  for (const r of result.runs) {
    console.log(
      `  ${String(r.days).padStart(3)} days (${r.documents} documents): record a pass ${r.recordMs.toFixed(2)} ms, ` +
        `read 6 h ${r.read6hMs.toFixed(2)} ms, read 7 d ${r.read7dMs.toFixed(2)} ms`,
    );
  }
}
