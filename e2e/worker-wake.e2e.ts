import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PRIMARY_STORE, type ReadStore } from '../src/readstore/read-store.port.js';
import { RUNNER_HEARTBEATS, RUNNER_HEARTBEATS_COLLECTION } from '../src/runner/runner-liveness.js';
import { REACTION_CHECKPOINTS } from '../src/storage/reactions/reaction-checkpoints.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const worker = fileURLToPath(new URL('../dist/src/worker.js', import.meta.url));
/** The worker's polls at their longest: a deployment it starts before then was woken. */
const POLL_MS = 60_000;
const WITHIN_MS = 20_000;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < WITHIN_MS; waited += 50) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

describe('a deployment triggered through the API wakes the runner of a worker process', () => {
  let t: TestApp;
  let child: ChildProcess;
  let auth: Record<string, string>;
  let serviceId: string;

  beforeAll(async () => {
    // The API with its runner off (the test default), the worker beside it on the same data.
    t = await startTestApp({ notes: false });
    auth = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serviceId } = await readyService(t.url, auth));
    child = spawn(process.execPath, [worker], {
      env: {
        ...process.env,
        SLIPWAY_DATA_DIR: t.config.dataDir,
        SLIPWAY_RUNNER_POLL_MS: String(POLL_MS),
        SLIPWAY_PROJECTION_POLL_MS: String(POLL_MS),
        SLIPWAY_LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // Up: its runner has made its first pass and its reaction feed has a checkpoint.
    const reads = t.app.get<symbol, ReadStore>(PRIMARY_STORE);
    await reads.ensureCollection(RUNNER_HEARTBEATS_COLLECTION);
    await until(
      async () =>
        (await reads.collection(RUNNER_HEARTBEATS).count()) > 0 &&
        (await reads.collection(REACTION_CHECKPOINTS).get('worker')) !== null,
      'the worker started',
    );
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await t?.close();
  });

  it('is started by the worker long before its poll', async () => {
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', auth, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.0.0',
      }),
    );
    let status = 'queued';
    await until(async () => {
      status = data<{ status: string }>(
        await call(t.url, 'GET', 'deploymentDetails', auth, { deploymentId }),
      ).status;
      return status !== 'queued';
    }, 'the deployment started');
    // Its server (a fixture address) may already have failed it: either way a runner took it.
    expect(['running', 'failed']).toContain(status);
  });
});
