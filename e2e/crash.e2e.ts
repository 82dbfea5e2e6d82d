import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';

const fixture = fileURLToPath(new URL('../dist/e2e/fixtures/append-loop.js', import.meta.url));

/** Runs the append loop until it has acknowledged `acks` batches, then SIGKILLs it. */
function runAndKill(file: string, firstBatch: number, acks: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixture, file, String(firstBatch)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked: number[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^ack (\d+) (\d+)$/.exec(line);
        if (match) acked.push(Number(match[1]));
      }
      if (acked.length >= acks && !child.killed) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`append loop ended without being killed`));
      else resolve(acked);
    });
  });
}

describe('event store durability under SIGKILL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every acknowledged append, never a partial batch, with gap-free positions', async () => {
    expect(existsSync(fixture)).toBe(true); // built by `npm run build`, which `npm test` runs first
    const file = join(dir, 'events.sqlite');
    const acked = new Set<number>();
    let next = 0;
    for (const target of [150, 40, 400]) {
      for (const batch of await runAndKill(file, next, target)) acked.add(batch);
      const store = new SqliteEventStore(file);
      const events = await store.readAll(0n, 10_000);
      await store.close();

      events.forEach((event, i) => expect(event.position).toBe(BigInt(i + 1)));
      const parts = new Map<number, number[]>();
      for (const event of events) {
        const batch = Number(event.data.batch);
        parts.set(batch, [...(parts.get(batch) ?? []), Number(event.data.part)]);
      }
      for (const [, seen] of parts) expect(seen).toEqual([0, 1, 2]);
      for (const batch of acked) expect(parts.has(batch)).toBe(true);
      next = Math.max(...parts.keys()) + 1;
    }
    expect(acked.size).toBeGreaterThanOrEqual(590);
  });
});
