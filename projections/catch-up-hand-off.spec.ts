import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { EventStore } from '../src/eventstore/event-store.port.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import type { CatchUpElsewhere } from './catch-up-hand-off.js';
import { projectInMemory } from './project-in-memory.js';
import type { Projection } from './projection.js';
import { ProjectionRunner } from './projection-runner.js';
import { appendCounts, counterProjection } from './testing/counter-projection.js';

/** The counter projection, counting each application of an event in `tally`. */
function tallied(tally: { applied: number }): Projection {
  const projection = counterProjection();
  const handlers: Projection['handlers'] = {};
  for (const [type, list] of Object.entries(projection.handlers)) {
    handlers[type] = list.map((handler) => ({
      ...handler,
      evolve: (current: Doc | null, event) => {
        tally.applied++;
        return handler.evolve(current, event);
      },
    }));
  }
  return { ...projection, handlers };
}

/**
 * A far-behind runner hands its catch-up elsewhere. Here "elsewhere" is a second runner on its
 * own connections to the same files, as the catch-up process is (e2e/catch-up-process.e2e.ts
 * starts the real one).
 */
describe('ProjectionRunner handing its catch-up elsewhere', () => {
  let dir: string;
  let events: SqliteEventStore;
  let store: SqliteReadStore;
  const stops: (() => Promise<void>)[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-hand-off-'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'), { pollIntervalMs: 20 });
    store = new SqliteReadStore(join(dir, 'read.sqlite'));
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await events.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const appendMany = (n: number) => appendCounts(events, n);

  const counters = async () =>
    (await store.collection('counters').find({}, { limit: 100, sort: { id: 1 } })).items;
  const folded = async () =>
    Object.values(projectInMemory(counterProjection(), await events.readAll(0n, 10_000)).counters)
      .map((d) => d as Doc)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  const strip = (list: Doc[]) => list.map(({ _position: _p, ...rest }) => rest);

  interface Elsewhere extends CatchUpElsewhere {
    tally: { applied: number };
    calls: { behind: number; head: number }[];
  }

  /**
   * A second runner and store on the same files; `stopAt` makes it stop (as a failed process
   * would) once past that position, `hold` keeps it from finishing until released.
   */
  function elsewhere(
    minEvents: number,
    options: { stopAt?: number; fail?: boolean; hold?: Promise<void> } = {},
  ): Elsewhere {
    const tally = { applied: 0 };
    const calls: { behind: number; head: number }[] = [];
    return {
      minEvents,
      tally,
      calls,
      run: async (behind, head, signal) => {
        calls.push({ behind, head });
        const otherEvents = new SqliteEventStore(join(dir, 'events.sqlite'), { watch: false });
        const otherStore = new SqliteReadStore(join(dir, 'read.sqlite'));
        const other = new ProjectionRunner(otherEvents, otherStore, [tallied(tally)], {
          batchSize: 7,
          pollIntervalMs: 10,
          waitTimeoutMs: 60_000,
        });
        await other.start();
        const stopped = new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        const target = options.stopAt ?? head;
        await Promise.race([other.waitFor(BigInt(target)), stopped]);
        await Promise.race([options.hold, stopped]);
        await other.stop();
        await otherEvents.close();
        await otherStore.close();
        if (options.fail) throw new Error('the catch-up process exited with 1');
      },
    };
  }

  function mainRunner(
    handOff: CatchUpElsewhere,
    tally = { applied: 0 },
    errors: unknown[] = [],
    on: EventStore = events,
  ) {
    const runner = new ProjectionRunner(on, store, [tallied(tally)], {
      batchSize: 7,
      pollIntervalMs: 10,
      catchUpElsewhere: handOff,
      onError: (_name, error) => errors.push(error),
    });
    stops.push(() => runner.stop());
    return runner;
  }

  it('applies nothing itself up to the head it handed off, then goes on from there', async () => {
    const head = await appendMany(120);
    const away = elsewhere(50);
    const tally = { applied: 0 };
    const runner = mainRunner(away, tally);
    await runner.start();
    await runner.waitFor(head);
    expect(away.calls).toEqual([{ behind: Number(head), head: Number(head) }]);
    expect(away.tally.applied).toBe(Number(head));
    expect(tally.applied).toBe(0);
    const last = await appendMany(10);
    await runner.waitFor(last);
    expect(tally.applied).toBe(Number(last - head));
    expect(strip(await counters())).toEqual(strip(await folded()));
    expect(runner.status().map((s) => s.position)).toEqual([Number(last)]);
  });

  it('catches up itself when not far enough behind', async () => {
    const head = await appendMany(30);
    const away = elsewhere(Number(head) + 1);
    const tally = { applied: 0 };
    const runner = mainRunner(away, tally);
    await runner.start();
    await runner.waitFor(head);
    expect(away.calls).toEqual([]);
    expect(tally.applied).toBe(Number(head));
  });

  it('answers waiters from the checkpoints committed elsewhere while it still runs', async () => {
    const head = await appendMany(100);
    let release = () => undefined as void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const away = elsewhere(50, { hold });
    const runner = mainRunner(away);
    await runner.start();
    // Elsewhere has reached the head but not returned: the runner saw it in the checkpoints.
    await runner.waitFor(head);
    expect(away.calls).toHaveLength(1);
    release();
  });

  it('applies what a failed catch-up did not reach, nothing twice, and reports the failure', async () => {
    const head = await appendMany(150);
    const away = elsewhere(50, { stopAt: 60, fail: true });
    const tally = { applied: 0 };
    const errors: unknown[] = [];
    const runner = mainRunner(away, tally, errors);
    await runner.start();
    await runner.waitFor(head);
    expect(away.tally.applied + tally.applied).toBe(Number(head));
    expect(tally.applied).toBeGreaterThan(0);
    expect(String(errors[0])).toContain('exited with 1');
    // A non-idempotent fold: any event applied twice would show here.
    expect(strip(await counters())).toEqual(strip(await folded()));
  });

  it('stops what runs elsewhere when it stops; the checkpoint on disk is where it resumes', async () => {
    const head = await appendMany(200);
    const hold = new Promise<void>(() => undefined);
    const away = elsewhere(50, { hold });
    const runner = mainRunner(away);
    await runner.start();
    await runner.waitFor(head);
    await runner.stop();
    const tally = { applied: 0 };
    const next = mainRunner(elsewhere(1_000), tally);
    await next.start();
    const last = await appendMany(5);
    await next.waitFor(last);
    expect(tally.applied).toBe(Number(last - head));
    expect(strip(await counters())).toEqual(strip(await folded()));
  });

  /** The same store, its head position answered by `head` (the rest passes through). */
  const withHead = (head: () => Promise<bigint>): EventStore =>
    Object.assign(Object.create(events) as EventStore, { headPosition: head });

  it('starts nothing elsewhere when stopped before it looked at the head', async () => {
    await appendMany(100);
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const away = elsewhere(10);
    const runner = mainRunner(
      away,
      { applied: 0 },
      [],
      withHead(async () => {
        await gate;
        return events.headPosition();
      }),
    );
    await runner.start();
    const stopping = runner.stop();
    release();
    await stopping;
    expect(away.calls).toEqual([]);
  });

  it('reports a hand-off that fails before it starts, and catches up itself', async () => {
    const head = await appendMany(80);
    const away = elsewhere(10);
    const tally = { applied: 0 };
    const errors: unknown[] = [];
    const broken = withHead(() => Promise.reject(new Error('the head cannot be read')));
    const runner = mainRunner(away, tally, errors, broken);
    await runner.start();
    await runner.waitFor(head);
    expect(away.calls).toEqual([]);
    expect(tally.applied).toBe(Number(head));
    expect(String(errors[0])).toContain('the head cannot be read');
  });
});
