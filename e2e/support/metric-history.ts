import {
  containerSeries,
  serverSeries,
  type MetricSamples,
  type Sample,
} from '../../src/runner/metrics/metric-samples.js';

export const MB = 1024 ** 2;
export const GB = 1024 ** 3;
/** The containers of the service `api` (compose project `api-production`). */
export const API = 'api-production-api-1';
export const WORKER = 'api-production-worker-1';
/** Twelve readings, five minutes apart, the last one now. */
const READINGS = 12;
const SERVER_CPU = [12, 18, 25, 31, 45, 60, 52, 48, 55, 63, 71, 78];

/**
 * An hour of a server's and its service's containers' readings, as the collector records them:
 * the server's CPU climbing to 78%, the api container healthy, the worker restarting once more
 * and unhealthy at the last reading. Answers the last reading of each (server, api, worker).
 */
export async function recordHistory(
  samples: MetricSamples,
  { serverId, serviceId }: { serverId: string; serviceId: string },
  now: number,
): Promise<Sample[]> {
  let last: Sample[] = [];
  for (let i = 0; i < READINGS; i++) {
    const at = new Date(now - (READINGS - 1 - i) * 5 * 60_000);
    const container = (name: string, values: Sample['values'], health: string) => ({
      series: containerSeries(serviceId, name),
      serverId,
      serviceId,
      container: name,
      values,
      state: 'running',
      health,
    });
    last = [
      {
        series: serverSeries(serverId),
        serverId,
        serviceId: null,
        container: null,
        values: {
          cpuPercent: SERVER_CPU[i],
          memoryPercent: 41 + i,
          memoryBytes: (3.3 + i * 0.08) * GB,
          diskPercent: 62 + i * 0.1,
          dockerDiskBytes: (8.5 + i * 0.05) * GB,
        },
        state: null,
        health: null,
      },
      container(
        API,
        {
          cpuPercent: 4 + (i % 4) * 6,
          memoryPercent: 24 + i,
          memoryBytes: (120 + i * 5) * MB,
          restarts: 0,
        },
        'healthy',
      ),
      container(
        WORKER,
        {
          cpuPercent: 35 - i * 2,
          memoryPercent: 60,
          memoryBytes: 300 * MB,
          restarts: i < 9 ? 1 : 2,
        },
        i === READINGS - 1 ? 'unhealthy' : 'healthy',
      ),
    ];
    await samples.record(last, at, Math.floor(at.getTime() / 60_000));
  }
  return last;
}

/**
 * A server's CPU only, 9% then 3% a minute apart in the middle of one clock hour (this one once
 * it is 31 minutes old, else the one before): its 7-day chart has a single hourly mean whose peak
 * differs, a lone point, whatever the time the test runs at.
 */
export async function recordLonePeak(
  samples: MetricSamples,
  serverId: string,
  now: number,
): Promise<void> {
  const hour = 3_600_000;
  const half = Math.floor(now / hour) * hour + hour / 2;
  const second = half + 60_000 <= now ? half + 60_000 : half + 60_000 - hour;
  for (const [at, cpuPercent] of [
    [second - 60_000, 9],
    [second, 3],
  ] as const) {
    const reading: Sample = {
      series: serverSeries(serverId),
      serverId,
      serviceId: null,
      container: null,
      values: { cpuPercent },
      state: null,
      health: null,
    };
    await samples.record([reading], new Date(at), Math.floor(at / 60_000));
  }
}
