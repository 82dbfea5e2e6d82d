import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import type { Projection } from '../../projections/projection.js';
import type { EventStore } from '../eventstore/event-store.port.js';
import { SqliteEventStore } from '../eventstore/sqlite/sqlite-event-store.js';
import { NamespacedEventStore } from '../eventstore/testing/namespaced-event-store.js';
import { testEvent } from '../eventstore/testing/test-events.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import type { ReadStore } from '../readstore/read-store.port.js';
import { HealthHandler, LAG_COUNT_CAP } from './health.handler.js';

const things: Projection = {
  name: 'things',
  version: 1,
  collections: [{ name: 'things' }],
  handlers: {
    Thing: [{ collection: 'things', documentId: (e) => e.id, evolve: (_, e) => ({ id: e.id }) }],
  },
};

describe('health: projection lag counts events, whatever the store does with positions', () => {
  let dir: string;
  let shared: SqliteEventStore;
  let reads: SqliteReadStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-health-'));
    shared = new SqliteEventStore(join(dir, 'events.sqlite'));
    reads = new SqliteReadStore(join(dir, 'read-models.sqlite'));
  });
  afterEach(async () => {
    await shared.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const lagOf = async (events: EventStore) => {
    const runner = new ProjectionRunner(events, reads, [things]);
    const handler = new HealthHandler(events, reads, reads, runner);
    return (await handler.report()).projections;
  };

  it('is degraded while the primary store cannot be reached, and says which store', async () => {
    const unreachable: ReadStore = Object.assign(Object.create(reads) as ReadStore, {
      isReady: async () => false,
    });
    const runner = new ProjectionRunner(shared, reads, []);
    const report = await new HealthHandler(shared, reads, unreachable, runner).report();
    expect(report).toMatchObject({
      status: 'degraded',
      readStore: { ready: true },
      primaryStore: { ready: false },
    });
  });

  it('on a dense store: the difference of positions', async () => {
    for (let i = 0; i < 4; i++) await shared.append(`s-${i}`, [testEvent('Thing')], 'no_stream');
    expect(await lagOf(shared)).toMatchObject({ lag: 4, items: [{ name: 'things', lag: 4 }] });
  });

  it('on a sparse store: the events after the position, not the distance between positions', async () => {
    // Given a namespace of a shared store, another writer's events between each of its own
    const view = new NamespacedEventStore(shared, 'mine-');
    for (let i = 0; i < 3; i++) {
      await view.append(`s-${i}`, [testEvent('Thing')], 'no_stream');
      await shared.append(`other-${i}`, [testEvent('Noise'), testEvent('Noise')], 'no_stream');
    }
    expect(Number(await view.headPosition())).toBeGreaterThan(3);
    expect(await lagOf(view)).toMatchObject({ lag: 3, items: [{ lag: 3 }] });
  });

  it('counts at most the cap on a sparse store', async () => {
    const view = new NamespacedEventStore(shared, 'mine-');
    const many = Array.from({ length: LAG_COUNT_CAP + 5 }, () => testEvent('Thing'));
    await view.append('s-1', many, 'no_stream');
    expect((await lagOf(view)).lag).toBe(LAG_COUNT_CAP);
  });
});
