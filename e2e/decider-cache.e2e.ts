import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { RequestContext } from '../src/access/request-context.js';
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
  const writer: Pick<EventWriter, 'append'> = {
    append: async (stream, events, expected, _ctx, onStored) => {
      const result = await store.append(
        stream,
        events.map((e) => ({ ...e, metadata: systemMetadata() })),
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
});
