import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { DeploymentDoc } from '../projections/deployments.projection.js';
import { loadConfig } from '../src/config/app-config.js';
import { DeploymentExecutor } from '../src/runner/deployment-executor.js';
import type { RunControl } from '../src/runner/run-control.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The runner's poll at its longest: a deployment it starts before then was woken by the event. */
const POLL_MS = 60_000;
const WITHIN_MS = 20_000;

describe('deployment events wake the runner through the EventBus', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let serviceId: string;
  const started: string[] = [];
  /** Why each run was stopped, by deployment id. */
  const stopped = new Map<string, string | null>();

  beforeAll(async () => {
    const defaults = loadConfig({});
    t = await startTestApp({
      notes: false,
      config: { runner: { ...defaults.runner, mode: 'embedded', pollMs: POLL_MS } },
    });
    // No server is contacted: the run stays in progress until the runner stops; what counts is
    // that it began.
    jest
      .spyOn(t.app.get(DeploymentExecutor), 'run')
      .mockImplementation((deployment: DeploymentDoc, control: RunControl) => {
        started.push(deployment.id);
        return new Promise<void>((resolve) =>
          control.abort.signal.addEventListener('abort', () => {
            stopped.set(deployment.id, control.cancelReason);
            resolve();
          }),
        );
      });
    auth = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serviceId } = await readyService(t.url, auth));
  });
  afterAll(async () => {
    await t?.close();
  });

  let deploymentId: string;

  it('starts a new deployment long before the runner would poll for it', async () => {
    ({ deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', auth, {
        serviceId,
        imageTag: 'ghcr.io/acme/api:1.0.0',
      }),
    ));
    // Reading the deployment pokes nothing: only the DeploymentTriggered reaction can wake it.
    let status = 'queued';
    for (let waited = 0; waited < WITHIN_MS && status === 'queued'; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = data<{ status: string }>(
        await call(t.url, 'GET', 'deploymentDetails', auth, { deploymentId }),
      ).status;
    }
    expect(status).toBe('running');
    expect(started).toEqual([deploymentId]);
  });

  it('stops a running deployment asked to cancel long before the runner would poll', async () => {
    expect((await call(t.url, 'POST', 'cancelDeployment', auth, { deploymentId })).status).toBe(
      200,
    );
    for (let waited = 0; waited < WITHIN_MS && !stopped.has(deploymentId); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stopped.get(deploymentId)).toBe('cancelled');
  });
});
