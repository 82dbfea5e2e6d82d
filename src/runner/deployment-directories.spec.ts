import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import { fileStoreHarness, type StoreHarness } from '../common/testing/store-harness.js';
import { SqliteReadStore } from '../readstore/sqlite/sqlite-read-store.js';
import {
  DIRECTORIES_KEPT,
  olderDirectoriesKept,
  pruneOlderStep,
} from './deployment-directories.js';

const PROJECT = 'api-production';

function deployment(id: string, fields: Partial<DeploymentDoc> = {}): DeploymentDoc {
  return {
    id,
    serviceId: 'svc',
    serviceName: 'api',
    environment: 'production',
    serverId: 'srv',
    order: 0,
    status: 'succeeded',
    ...fields,
  } as DeploymentDoc;
}

/** A server's disk: the remote directory, and a `docker` that reports the project's mounts. */
let root: string;
let remoteDir: string;
let base: string;

/** Runs the step's script as the runner does over SSH; its stdout and stderr. */
function prune(current: string, kept: string[]): Promise<{ code: number; out: string }> {
  const [command, ...args] = pruneOlderStep(remoteDir, deployment(current), kept).args;
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { env: { ...process.env, PATH: `${join(root, 'bin')}:${process.env.PATH}`, STATE: root } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** A deployment's directory as the steps leave it: its compose file, `.env` and a bind mount's data. */
function written(id: string): string {
  const dir = join(base, id);
  mkdirSync(join(dir, 'data'), { recursive: true });
  writeFileSync(join(dir, 'compose.yaml'), '{"services":{}}');
  writeFileSync(join(dir, '.env'), 'TOKEN="secret"\n');
  writeFileSync(join(dir, 'data', 'db'), 'rows');
  return dir;
}

const listing = () =>
  readdirSync(base)
    .sort()
    .map((id) => `${id}: ${readdirSync(join(base, id)).sort().join(' ')}`);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'slipway-prune-'));
  remoteDir = join(root, 'srv $(touch pwned) x');
  base = join(remoteDir, PROJECT);
  mkdirSync(base, { recursive: true });
  mkdirSync(join(root, 'bin'));
  writeFileSync(
    join(root, 'bin', 'docker'),
    `#!/bin/sh
[ ! -f "$STATE/docker-fails" ] || exit 1
case $1 in
  ps) cat "$STATE/ids" 2>/dev/null || true ;;
  inspect) cat "$STATE/mounts" ;;
esac
`,
    { mode: 0o755 },
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('after a deployment succeeded, its project’s other directories', () => {
  it('lose their secrets; the kept ones stay with their data, the others go whole', async () => {
    for (const id of ['d1', 'd2', 'd3', 'd4', 'd5']) written(id);
    const { code, out } = await prune('d5', ['d4', 'd3']);
    expect(code).toBe(0);
    expect(listing()).toEqual(['d3: data', 'd4: data', 'd5: .env compose.yaml data']);
    expect(out).toContain('removed d1');
    expect(out).toContain('removed the secrets of d4');
    expect(existsSync(join(root, 'pwned'))).toBe(false);
  });

  it('keep whole a directory a container of the project still mounts from (secrets removed)', async () => {
    for (const id of ['d1', 'd2', 'd3']) written(id);
    writeFileSync(join(root, 'ids'), 'c1\nc2\n');
    writeFileSync(join(root, 'mounts'), `${join(base, 'd1', 'data', 'db')}\n/var/lib/docker/v\n`);
    await prune('d3', []);
    expect(listing()).toEqual(['d1: data', 'd3: .env compose.yaml data']);
  });

  it('are not removed whole when the engine cannot say what is mounted', async () => {
    for (const id of ['d1', 'd2']) written(id);
    writeFileSync(join(root, 'docker-fails'), '');
    const { code, out } = await prune('d2', []);
    expect(code).toBe(0);
    expect(out).toContain('could not read what the containers mount');
    expect(listing()).toEqual(['d1: data', 'd2: .env compose.yaml data']);
  });

  it('are left alone when the deployment’s own directory is not there', async () => {
    written('d1');
    const { code, out } = await prune('d2', []);
    expect([code, out]).toEqual([0, expect.stringContaining('nothing removed')]);
    expect(listing()).toEqual(['d1: .env compose.yaml data']);
  });

  it('never follow a link out of the project’s directory', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, '.env'), 'KEEP=1');
    symlinkSync(outside, join(base, 'link'));
    written('d2');
    // Even named as kept: its `.env` is not the project's to remove.
    await prune('d2', ['link']);
    expect(readdirSync(outside)).toEqual(['.env']);
  });
});

describe('the directories kept', () => {
  let harness: StoreHarness<SqliteReadStore>;

  beforeEach(async () => {
    harness = fileStoreHarness('read.sqlite', (file) => new SqliteReadStore(file));
    await harness.store.ensureCollection({ name: 'deployments' });
  });
  afterEach(() => harness.dispose());

  it('are those of the deployments that succeeded before it on its server, newest first', async () => {
    const deployments = harness.store.collection<DeploymentDoc>('deployments');
    const rows: [string, Partial<DeploymentDoc>][] = [
      ['a', { order: 1 }],
      ['b', { order: 2 }],
      ['c', { order: 3, status: 'failed' }],
      ['d', { order: 4, serverId: 'elsewhere' }],
      ['e', { order: 5 }],
      ['other', { order: 6, serviceId: 'another' }],
      ['now', { order: 7, status: 'running' }],
      ['later', { order: 8 }],
    ];
    for (const [id, fields] of rows) await deployments.put(deployment(id, fields));
    const kept = await olderDirectoriesKept(harness.store, deployment('now', { order: 7 }));
    expect(kept).toEqual(['e', 'b']);
    expect(kept).toHaveLength(DIRECTORIES_KEPT - 1);
  });
});
