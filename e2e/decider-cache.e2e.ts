import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { RequestContext } from '../src/kernel/request-context.js';
import { conflict } from '../src/common/app-error.js';
import { systemMetadata } from '../src/eventstore/event-metadata.js';
import type { EventStore } from '../src/eventstore/event-store.port.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { DeciderRunner } from '../src/storage/decider-runner.js';
import type { Decider, EventLike } from '../src/storage/decider.js';
import type { EventWriter } from '../src/storage/event-writer.js';

const fixture = fileURLToPath(new URL('../dist/e2e/fixtures/append-loop.js', import.meta.url));

/** Everything the stream says, in order, plus a running total: a full fold is easy to check. */
interface Ledger {
  entries: readonly string[];
  total: number;
}
type Note = { amount: number; refuseAbove?: number };

const ledger: Decider<Ledger, Note> = {
  initialState: () => ({ entries: [], total: 0 }),
  evolve(state, event: EventLike) {
    const d = event.data;
    const entry =
      event.type === 'CrashProbe'
        ? `probe ${String(d.batch)}.${String(d.part)}`
        : `noted ${String(d.amount)}`;
    const amount = event.type === 'Noted' ? Number(d.amount) : 1;
    return { entries: [...state.entries, entry], total: state.total + amount };
  },
  decide(command, state) {
    if (command.refuseAbove !== undefined && state.total > command.refuseAbove) {
      throw conflict('over the limit');
    }
    return [{ type: 'Noted', schemaVersion: 1, data: { amount: command.amount } }];
  },
};

/** Appends as the application's writer does, without read models to wait for. */
function writerFor(store: EventStore): EventWriter {
  const writer: Pick<EventWriter, 'appendParts'> = {
    appendParts: async (stream, parts, expected, onStored) => {
      const result = await store.append(
        stream,
        parts.flatMap(({ events }) => events.map((e) => ({ ...e, metadata: systemMetadata() }))),
        expected,
      );
      onStored?.();
      return result;
    },
  };
  return writer as EventWriter;
}

const ctx = {} as RequestContext;

async function fullFold(store: EventStore, stream: string): Promise<Ledger> {
  const events = await store.readStream(stream);
  return events.reduce(ledger.evolve, ledger.initialState());
}

/** Runs the append loop until it has acknowledged `acks` batches, then SIGKILLs it. */
function appendLoop(file: string, acks: number): { done: Promise<void> } {
  const child = spawn(process.execPath, [fixture, file, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let seen = 0;
  const done = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('ack ')).length;
      if (seen >= acks && !child.killed) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
  return { done };
}

describe('cached folded state (DeciderRunner)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('equals a full fold after another store on the same file appends to the stream', async () => {
    const file = join(dir, 'two-stores.sqlite');
    const mine = new SqliteEventStore(file);
    const other = new SqliteEventStore(file);
    const runner = new DeciderRunner(mine, writerFor(mine));
    try {
      for (let i = 0; i < 5; i++) await runner.run('ledger-1', ledger, { amount: 10 }, ctx);
      expect(await runner.load('ledger-1', ledger)).toEqual(await fullFold(mine, 'ledger-1'));

      // Another writer moves the stream on behind the cache's back.
      const tail = await other.readStream('ledger-1');
      await other.append(
        'ledger-1',
        [{ type: 'Noted', schemaVersion: 1, data: { amount: 1000 }, metadata: systemMetadata() }],
        tail[tail.length - 1].revision,
      );
      expect(await runner.load('ledger-1', ledger)).toEqual(await fullFold(other, 'ledger-1'));

      // The decision is made on the caught-up state: 1050 is above the limit.
      await expect(
        runner.run('ledger-1', ledger, { amount: 1, refuseAbove: 1000 }, ctx),
      ).rejects.toMatchObject({ code: 'CONFLICT' });

      // A decision made on a stale state loses the revision race and is made again.
      const stale = await other.readStream('ledger-1');
      const racing = runner.run('ledger-1', ledger, { amount: 3 }, ctx);
      await other.append(
        'ledger-1',
        [{ type: 'Noted', schemaVersion: 1, data: { amount: 7 }, metadata: systemMetadata() }],
        stale[stale.length - 1].revision,
      );
      const decision = await racing;
      const full = await fullFold(mine, 'ledger-1');
      expect(decision.state).toEqual(full);
      expect(await runner.load('ledger-1', ledger)).toEqual(full);
      expect(full.entries.filter((e) => e === 'noted 3')).toHaveLength(1);
    } finally {
      await other.close();
      await mine.close();
    }
  });

  it('equals a full fold while another process appends to the same streams', async () => {
    expect(existsSync(fixture)).toBe(true); // built by `npm run build`, which `npm test` runs first
    const file = join(dir, 'child.sqlite');
    const store = new SqliteEventStore(file);
    const runner = new DeciderRunner(store, writerFor(store));
    try {
      await runner.run('probe-0', ledger, { amount: 5 }, ctx);
      const child = appendLoop(file, 60);
      let finished = false;
      void child.done.then(() => (finished = true));
      // Commands on a stream the child appends to ('any'): each must land exactly once.
      let commands = 1;
      while (!finished) {
        await runner.run('probe-0', ledger, { amount: 5 }, ctx, 1000);
        commands += 1;
        for (let s = 0; s < 5; s++) await runner.load(`probe-${s}`, ledger);
        // SQLite answers synchronously: yield so the child's output is read.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await child.done;
      for (let s = 0; s < 5; s++) {
        const stream = `probe-${s}`;
        expect(await runner.load(stream, ledger)).toEqual(await fullFold(store, stream));
      }
      const probe0 = await runner.load('probe-0', ledger);
      expect(probe0.entries.filter((e) => e === 'noted 5')).toHaveLength(commands);
      expect(probe0.entries.some((e) => e.startsWith('probe'))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('decides commands that arrive together in turn and stores them with one append', async () => {
    const file = join(dir, 'grouped.sqlite');
    const store = new SqliteEventStore(file);
    const other = new SqliteEventStore(file);
    const writer = writerFor(store);
    let appends = 0;
    const counted = {
      appendParts: (...args: Parameters<EventWriter['appendParts']>) => {
        appends += 1;
        return writer.appendParts(...args);
      },
    } as EventWriter;
    const runner = new DeciderRunner(store, counted);
    try {
      await runner.run('ledger-2', ledger, { amount: 1 }, ctx);
      appends = 0;
      // Ten arrive at once: they share one turn, or two when the first starts one on its own.
      // The fifth is refused on the state its predecessors leave (1 + 10 * 4 = 41 > 40).
      const amounts = [10, 10, 10, 10, 1, 10, 10, 10, 10, 10];
      const results = await Promise.allSettled(
        amounts.map((amount, i) =>
          runner.run('ledger-2', ledger, i === 4 ? { amount, refuseAbove: 40 } : { amount }, ctx),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(
        amounts.map((_, i) => (i === 4 ? 'rejected' : 'fulfilled')),
      );
      expect(appends).toBeGreaterThanOrEqual(1);
      expect(appends).toBeLessThanOrEqual(2);
      const full = await fullFold(store, 'ledger-2');
      expect(full.entries).toEqual(['noted 1', ...Array<string>(9).fill('noted 10')]);
      // Each answer is the state after its own events, in arrival order.
      const totals = results.flatMap((r) =>
        r.status === 'fulfilled' ? [r.value.state.total] : [],
      );
      expect(totals).toEqual([11, 21, 31, 41, 51, 61, 71, 81, 91]);

      // Another writer moves the stream while a group is decided: the group loses the race,
      // is decided again on the newer state, and each command still lands exactly once.
      const head = await other.readStream('ledger-2');
      const first = runner.run('ledger-2', ledger, { amount: 2 }, ctx);
      const group = [3, 4, 5].map((amount) => runner.run('ledger-2', ledger, { amount }, ctx));
      await other.append(
        'ledger-2',
        [{ type: 'Noted', schemaVersion: 1, data: { amount: 100 }, metadata: systemMetadata() }],
        head[head.length - 1].revision,
      );
      await Promise.all([first, ...group]);
      const after = await fullFold(store, 'ledger-2');
      for (const n of ['noted 2', 'noted 3', 'noted 4', 'noted 5', 'noted 100']) {
        expect(after.entries.filter((e) => e === n)).toHaveLength(1);
      }
      expect(await runner.load('ledger-2', ledger)).toEqual(after);
    } finally {
      await other.close();
      await store.close();
    }
  });
});
