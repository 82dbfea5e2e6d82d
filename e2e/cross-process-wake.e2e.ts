import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { openSse } from './support/sse.js';
import { freePort } from './support/ports.js';

const main = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));
const writer = fileURLToPath(new URL('../dist/e2e/fixtures/wake-writer.js', import.meta.url));
const run = promisify(execFile);
/** Both polls at their longest: what arrives before them was woken by a change notification. */
const POLL_MS = 60_000;
const WITHIN_MS = 20_000;

describe('another process writing to the SQLite data directory wakes the API process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-wake-'));
  const dataDir = join(dir, 'data');
  let url: string;
  let child: ChildProcess;
  let auth: Record<string, string>;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        PORT: String(port),
        SLIPWAY_DATA_DIR: dataDir,
        SLIPWAY_RUNNER: 'off',
        SLIPWAY_PROJECTION_POLL_MS: String(POLL_MS),
        SLIPWAY_LOG_STREAM_POLL_MS: String(POLL_MS),
        SLIPWAY_LOG_LEVEL: 'error',
        SLIPWAY_OPEN_SIGNUP: 'true',
        SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; i < 600; i++) {
      const up = await fetch(`${url}/trpc/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    auth = cookieAuth((await signUp(url, 'owner@example.com')).cookie);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies the events another process appended long before its poll would', async () => {
    const { stdout } = await run(process.execPath, [
      writer,
      'events',
      join(dataDir, 'events.sqlite'),
      '5',
    ]);
    const last = Number(stdout.trim());
    // Reading health appends nothing, so nothing in this process pokes the projection runner.
    type Health = { projections: { items: { name: string; position: number }[] } };
    let health: Health | null = null;
    for (let waited = 0; waited < WITHIN_MS; waited += 50) {
      health = data<Health>(await call(url, 'GET', 'health', auth));
      if (health.projections.items.every((p) => p.position >= last)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(health?.projections.items.filter((p) => p.position < last)).toEqual([]);
  });

  it('streams the log lines a worker process appended to a follower at once', async () => {
    const { serviceId } = await readyService(url, auth);
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(url, 'POST', 'triggerDeploy', auth, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.0.0',
      }),
    );
    const stream = await openSse(`${url}/api/v1/deployments/${deploymentId}/logs/stream`, auth);
    expect(stream.status).toBe(200);
    try {
      await run(process.execPath, [
        writer,
        'logs',
        join(dataDir, 'primary.sqlite'),
        deploymentId,
        '5',
      ]);
      const fifth = await stream.waitFor((e) => e.event === 'line' && e.id === '5', WITHIN_MS);
      expect(JSON.parse(fifth.data)).toMatchObject({ line: 5, text: 'line 5 from the worker' });
      expect(stream.events.filter((e) => e.event === 'line').map((e) => e.id)).toEqual([
        '1',
        '2',
        '3',
        '4',
        '5',
      ]);
    } finally {
      stream.close();
    }
  });
});
