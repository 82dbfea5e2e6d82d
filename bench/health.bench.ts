import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, spawnListening, stop, waitForHttp, type LoadResult } from './http-load.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export interface HealthBenchResult {
  slipway: LoadResult;
  bare: LoadResult;
  express: LoadResult;
  throughputRatio: number;
  p99Ratio: number;
}

/** Slipway's `health` against a bare node:http server, both measured here and now. */
export async function benchHealth(
  seconds: number,
  connections: number,
): Promise<HealthBenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-bench-'));
  const port = 31000 + Math.floor(Math.random() * 2000);
  const slipway = spawn(process.execPath, [here('../src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      SLIPWAY_DATA_DIR: dataDir,
      SLIPWAY_LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
  });
  const bare = await spawnListening(here('./bare-server.js'));
  const express = await spawnListening(here('./bare-express.js'));
  try {
    const slipwayUrl = `http://127.0.0.1:${port}/trpc/health`;
    await waitForHttp(slipwayUrl);
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
    };
  } finally {
    await stop(slipway);
    await stop(bare.child);
    await stop(express.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
