import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import { RUNNER_HEARTBEATS, RunnerLiveness, type RunnerHeartbeatDoc } from './runner-liveness.js';

describe('RunnerLiveness', () => {
  let dir: string;
  let store: SqliteReadStore;
  let now = 1_000_000;
  const runner = async (id: string) => {
    const liveness = new RunnerLiveness(store, id, 300, () => now);
    await liveness.start();
    return liveness;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-liveness-'));
    store = new SqliteReadStore(join(dir, 'read.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists what a live runner runs, from before its start, until it is released', async () => {
    // Given two runners, a claiming a deployment
    const a = await runner('a');
    const b = await runner('b');
    await a.claiming('d1');
    // Then b sees it run by a live runner, until a releases it
    expect(await b.runByLiveRunners()).toEqual(new Set(['d1']));
    await a.released('d1');
    expect(await b.runByLiveRunners()).toEqual(new Set());
  });

  it('takes a runner for dead once its heartbeat expires, unless renewed', async () => {
    const a = await runner('a');
    const b = await runner('b');
    await a.claiming('d1');
    now += 200;
    await a.renew();
    now += 200;
    expect(await b.runByLiveRunners()).toEqual(new Set(['d1']));
    now += 301;
    expect(await b.runByLiveRunners()).toEqual(new Set());
  });

  it('takes a runner of this host whose process is gone for dead at once', async () => {
    // Given the heartbeat of a process of this host that has exited
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const b = await runner('b');
    await store.collection<RunnerHeartbeatDoc>(RUNNER_HEARTBEATS).put({
      id: 'killed',
      host: hostname(),
      pid: gone,
      expiresAt: now + 10_000,
      deployments: ['d1'],
    });
    // Then its deployment is run by no live runner
    expect(await b.runByLiveRunners()).toEqual(new Set());
  });

  it('is dead at once after a clean stop', async () => {
    const a = await runner('a');
    await a.claiming('d1');
    await a.stop();
    expect(await (await runner('b')).runByLiveRunners()).toEqual(new Set());
  });
});
