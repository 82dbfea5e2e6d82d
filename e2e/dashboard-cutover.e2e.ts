import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { DeploymentLogStore } from '../src/deployments/deployment-log-store.js';
import { DeploymentStateMachine } from '../src/deployments/deployment-state-machine.js';
import { anonymousContext, type RequestContext } from '../src/kernel/request-context.js';
import { ensureWebBundle, launchBrowser, logInThroughPage, screenshot } from './support/browser.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { MINUTE, TestClock } from './support/test-clock.js';

const OWNER = 'owner@example.com';
const SECOND = 1000;

/** A step as the runner records it: started, `seconds` on the clock, finished (or left running). */
type Step = [name: string, seconds: number, ok?: boolean | null, detail?: string];

/**
 * The deployment page's Cutover section in a real browser, for gapless deployments whose steps
 * and log are recorded as the runner records them (no engine, no server): one that switched,
 * drained and retired; one whose new containers failed their health check, so the old ones kept
 * serving; one still before the switch.
 */
describe('the dashboard: a gapless deployment’s cutover', () => {
  const clock = new TestClock();
  /** How far the app's clock is ahead of real time (behind, when negative). */
  let ahead = 0;
  const advance = (ms: number) => {
    ahead += ms;
    clock.advance(ms);
  };
  /** Sets the app's clock `ms` behind real time. */
  const behind = (ms: number) => advance(-ms - ahead);
  let t: TestApp;
  let browser: Browser;
  let owner: Record<string, string>;
  let serviceId: string;
  const ctx: RequestContext = {
    ...anonymousContext('runner', 'runner', null),
    authMethod: 'system',
  };

  const trigger = async (tag: string) =>
    data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, {
        serviceId,
        imageTag: `ghcr.io/acme/api:${tag}`,
      }),
    ).deploymentId;

  /** Starts the deployment and records `steps` in order, with their log lines; the last may stay open. */
  const run = async (deploymentId: string, steps: Step[], log: Record<string, string[]>) => {
    const machine = t.app.get(DeploymentStateMachine);
    await machine.apply({ kind: 'start', deploymentId, runnerId: 'test' }, ctx);
    let line = 0;
    const write = (step: string, text: string, stream: 'stdout' | 'stderr' = 'stdout') =>
      t.app
        .get(DeploymentLogStore)
        .append([
          { deploymentId, line: ++line, step, stream, text, at: clock.now().toISOString() },
        ]);
    for (const [step, seconds, ok = true, detail] of steps) {
      await machine.apply({ kind: 'stepStarted', deploymentId, step }, ctx);
      advance(seconds * SECOND);
      for (const text of log[step] ?? []) await write(step, text);
      if (ok === null) return write;
      await machine.apply(
        { kind: 'stepFinished', deploymentId, step, ok, detail: detail ?? null },
        ctx,
      );
    }
    return write;
  };

  let switchedId: string;
  let unhealthyId: string;
  let runningId: string;
  let cancelledId: string;

  beforeAll(async () => {
    ensureWebBundle();
    // The steps take their seconds on the app's clock, which starts behind the browser's: what
    // they record stays in the past, as a runner's would.
    behind(5 * MINUTE);
    t = await startTestApp({ notes: false, clock });
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
    const machine = t.app.get(DeploymentStateMachine);

    switchedId = await trigger('2.0.0');
    await run(
      switchedId,
      [
        ['connect', 1],
        ['pull', 6],
        ['edge-sync', 1],
        ['start-new', 3],
        ['health-new', 8],
        ['probe-new', 2],
        ['switch', 1],
        ['drain', 10],
        ['retire', 2],
        ['up', 1],
        ['edge-unpin', 0],
      ],
      {
        'start-new': ['new web p-web-2 172.30.0.5', 'new web p-web-3 172.30.0.6'],
        'probe-new': ['web at http://172.30.0.5:8080/ answered 200'],
        switch: ['web → p-web-2, p-web-3', 'edge proxy: 2 routes, reloaded'],
        drain: ['waited 10 s for requests in flight to the old containers'],
        retire: ['retired 1 old container(s) of web'],
      },
    );
    await machine.apply(
      {
        kind: 'succeed',
        deploymentId: switchedId,
        serviceId,
        imageRef: 'ghcr.io/acme/api:2.0.0',
        imageDigest: `sha256:${'d'.repeat(64)}`,
      },
      ctx,
    );

    unhealthyId = await trigger('2.1.0');
    const write = await run(
      unhealthyId,
      [
        ['connect', 1],
        ['pull', 4],
        ['edge-sync', 1],
        ['start-new', 3],
        ['health-new', 5, false, 'health-new exited with 1'],
      ],
      { 'health-new': ['unhealthy: web:exited/'] },
    );
    await write('health-new', 'slipway: the new containers did not become healthy', 'stderr');
    await write('remove-new', 'removed the new containers of web');
    await machine.apply(
      {
        kind: 'fail',
        deploymentId: unhealthyId,
        reason: 'health-new exited with 1',
        step: 'health-new',
      },
      ctx,
    );

    // On a service of its own: the one below stays running.
    const other = await readyService(t.url, owner, { name: 'shop' });
    cancelledId = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, {
        serviceId: other.serviceId,
        imageTag: 'ghcr.io/acme/api:3.0.0',
      }),
    ).deploymentId;
    await run(
      cancelledId,
      [
        ['connect', 1],
        ['pull', 2],
        ['edge-sync', 1],
        ['start-new', 3],
        ['health-new', 4],
        ['probe-new', 1],
      ],
      {},
    );
    data(await call(t.url, 'POST', 'cancelDeployment', owner, { deploymentId: cancelledId }));
    await machine.apply(
      { kind: 'confirmCancelled', deploymentId: cancelledId, reason: 'cancelled' },
      ctx,
    );
    // The running one ends its recorded steps just before now, so the page's "so far" is true.
    behind(2 * SECOND + 12 * SECOND);
    runningId = await trigger('2.2.0');
    await run(
      runningId,
      [
        ['connect', 1],
        ['pull', 2],
        ['edge-sync', 1],
        ['start-new', 3],
        ['health-new', 4],
        ['probe-new', 1, null],
      ],
      {},
    );
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const open = async (deploymentId: string): Promise<Page> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/login?returnTo=%2Fdeployments%2F${deploymentId}`);
    await logInThroughPage(page, OWNER);
    await page.waitForURL(`${t.url}/deployments/${deploymentId}`);
    return page;
  };

  it('shows when traffic switched, how long after the new containers were healthy, the drain and the retiring', async () => {
    const page = await open(switchedId);
    const cutover = page.getByRole('region', { name: 'Cutover' });
    await cutover.getByText('Traffic switched to the new containers').waitFor();
    await cutover.getByText('web → p-web-2, p-web-3').waitFor();
    const text = await cutover.innerText();
    expect(text).toMatch(/From healthy to switched\s+3 s \(probe 2 s\)/i);
    expect(text).toMatch(/Drain\s+10 s for requests in flight/i);
    expect(text).toMatch(/Old containers retired\s+\S/i);
    expect(text).not.toContain('not retired');
    expect(text).toContain('edge proxy: 2 routes, reloaded');
    await screenshot(page, 'deployment-cutover-switched');
    await page.context().close();
  });

  it('says the new version never took traffic when its health check failed', async () => {
    const page = await open(unhealthyId);
    const cutover = page.getByRole('region', { name: 'Cutover' });
    await cutover.getByText('The new version never took traffic').waitFor();
    const text = await cutover.innerText();
    expect(text).toContain('the old containers kept serving and the new ones were removed');
    expect(text).toContain('It failed at health-new: the new containers did not become healthy.');
    expect(text).not.toContain('Traffic switched');
    await screenshot(page, 'deployment-cutover-failed');
    await page.context().close();
  });

  it('says so for a deployment cancelled before its switch', async () => {
    const page = await open(cancelledId);
    const cutover = page.getByRole('region', { name: 'Cutover' });
    await cutover.getByText('It was cancelled after probe-new.').waitFor();
    await expect(cutover.innerText()).resolves.toContain('The new version never took traffic');
    await page.context().close();
  });

  it('follows the phase of a deployment before its switch', async () => {
    const page = await open(runningId);
    const cutover = page.getByRole('region', { name: 'Cutover' });
    await cutover.getByText('Now: asking the new containers over HTTP.').waitFor();
    await screenshot(page, 'deployment-cutover-running');

    const machine = t.app.get(DeploymentStateMachine);
    const step = (name: string) => ({ deploymentId: runningId, step: name });
    await machine.apply(
      { kind: 'stepFinished', ...step('probe-new'), ok: true, detail: null },
      ctx,
    );
    await machine.apply({ kind: 'stepStarted', ...step('switch') }, ctx);
    await machine.apply({ kind: 'stepFinished', ...step('switch'), ok: true, detail: null }, ctx);
    await machine.apply({ kind: 'stepStarted', ...step('drain') }, ctx);
    await cutover.getByText('Traffic switched to the new containers').waitFor();
    await expect(cutover.innerText()).resolves.toMatch(/waiting for requests in flight/);
    await screenshot(page, 'deployment-cutover-draining');
    await page.context().close();
  });

  it('is not shown before a deployment starts new containers', async () => {
    const queued = await trigger('2.3.0');
    const page = await open(queued);
    await page.getByText('No step has run yet.').waitFor();
    await expect(page.getByRole('region', { name: 'Cutover' }).count()).resolves.toBe(0);
    await page.context().close();
  });
});
