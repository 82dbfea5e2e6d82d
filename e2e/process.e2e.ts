import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { rpcData } from './support/wire.js';
import { freePort } from './support/ports.js';

const main = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('the service as a process (node dist/src/main.js)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-proc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts on the embedded default, answers health, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const started = Date.now();
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, PORT: String(port), SLIPWAY_DATA_DIR: join(dir, 'data') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const done = exited(child);
    let health: { status: string } | null = null;
    for (let i = 0; i < 600 && !health; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/trpc/health`);
        health = await rpcData<{ status: string }>(res);
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    // Recorded for the README and the closing note; never asserted (no wall-clock tests).
    process.stderr.write(`[process.e2e] health answered ${Date.now() - started} ms after spawn\n`);
    expect(health?.status).toBe('ok');
    child.kill('SIGTERM');
    const { code } = await done;
    expect(code).toBe(0);
  });

  it.each([
    ['PORT', 'http'],
    ['SLIPWAY_LOG_LEVEL', 'chatty'],
  ])('refuses to start with %s=%s and names the variable', async (name, value) => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, SLIPWAY_DATA_DIR: join(dir, 'bad'), [name]: value },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const { code, stderr } = await exited(child);
    expect(code).toBe(2);
    expect(stderr).toContain(`${name}=`);
  });
});
