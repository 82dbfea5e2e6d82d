import { fileURLToPath } from 'node:url';
import { load, spawnListening, startSlipway, stop, type LoadResult } from './http-load.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export interface HealthBenchResult {
  slipway: LoadResult;
  bare: LoadResult;
  express: LoadResult;
  throughputRatio: number;
  p99Ratio: number;
  connections: number;
  /** From spawn to Slipway's first `health` answer (polled every 50 ms), or a bare server's "listening". */
  startMs: { slipway: number; bare: number; express: number };
}

/** Slipway's `health` against a bare node:http server, both measured here and now. */
export async function benchHealth(
  seconds: number,
  connections: number,
): Promise<HealthBenchResult> {
  const timed = async <T>(start: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const value = await start();
    return [value, performance.now() - started];
  };
  const [slipway, slipwayStartMs] = await timed(() => startSlipway());
  const [bare, bareStartMs] = await timed(() => spawnListening(here('./bare-server.js')));
  const [express, expressStartMs] = await timed(() => spawnListening(here('./bare-express.js')));
  try {
    const slipwayUrl = `${slipway.url}/trpc/health`;
    const bareUrl = `http://127.0.0.1:${bare.port}/`;
    await load(bareUrl, 1, connections); // warm-up
    await load(slipwayUrl, 1, connections);
    const bareResult = await load(bareUrl, seconds, connections);
    const expressResult = await load(`http://127.0.0.1:${express.port}/`, seconds, connections);
    const slipwayResult = await load(slipwayUrl, seconds, connections);
    return {
      slipway: slipwayResult,
      bare: bareResult,
      express: expressResult,
      throughputRatio: slipwayResult.requestsPerSecond / bareResult.requestsPerSecond,
      p99Ratio: slipwayResult.p99Ms / Math.max(bareResult.p99Ms, 1),
      connections,
      startMs: { slipway: slipwayStartMs, bare: bareStartMs, express: expressStartMs },
    };
  } finally {
    await slipway.stop();
    await stop(bare.child);
    await stop(express.child);
  }
}
