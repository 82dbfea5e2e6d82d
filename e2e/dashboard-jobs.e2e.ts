import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { join } from 'node:path';
import {
  ensureWebBundle,
  launchBrowser,
  screenshot,
  SCREENSHOTS,
  signedInPage,
} from './support/browser.js';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { freePort } from './support/ports.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
  waitForDeployment,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';
const VIEWER = 'viewer@example.com';
/** The compose project of the service below (`<name>-<environment>`). */
const PROJECT = 'reports-production';
const COMMAND = 'echo hello from the dashboard; exit 2';

interface JobView {
  jobId: string;
  name: string;
  schedule: string;
  timezone: string;
  composeService: string;
  command: string[];
  enabled: boolean;
}

/**
 * The scheduled jobs of a service on the services page, in a real browser, against the real
 * service with its runner, a real sshd and a real Docker engine: a job added in the form (its
 * shell line sent as `sh -c`), run now, its run failing with the command's exit code, its output
 * read; disabled and removed after a confirmation. A viewer sees the jobs and their runs, and no
 * control to change them.
 */
describe('the dashboard: scheduled jobs in a real browser', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let browser: Browser;
  let owner: Record<string, string>;
  let viewer: Record<string, string>;
  let serviceId: string;

  const jobs = async () =>
    data<{ jobs: JobView[] }>(await call(t.url, 'GET', 'scheduledJobs', owner, { serviceId })).jobs;

  beforeAll(async () => {
    ensureWebBundle();
    engine = dockerEngine();
    sshd = await startSshd({ engine });
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    viewer = await memberWithRole(t.url, owner, VIEWER, 'viewer');
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    const port = await freePort();
    const image = `${engine.registry}/acme/api:1.0.0`;
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'reports',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: `services:\n  web:\n    image: ${image}\n    ports: ["127.0.0.1:${port}:80"]\n`,
      }),
    ).serviceId;
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: image }),
    );
    const done = await waitForDeployment<{ status: string }>(
      t,
      owner,
      deploymentId,
      ['succeeded', 'failed'],
      60_000,
      50,
    );
    expect(done.status).toBe('succeeded');
    browser = await launchBrowser();
  }, 5 * 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await sshd?.stop();
    engine?.removeProject(PROJECT);
  });

  // Tall enough for the whole section in one screenshot.
  const signedIn = (email: string, path: string) =>
    signedInPage(browser, t.url, email, path, { viewport: { width: 1280, height: 1400 } });

  const jobsSection = (page: Page) =>
    page
      .getByRole('region', { name: 'reports production' })
      .getByRole('region', { name: 'Scheduled jobs' });

  it('adds a job in the form, runs it now, shows the failed run with its exit code and output', async () => {
    const [context, page] = await signedIn(OWNER, '/services');
    const section = jobsSection(page);
    await section.getByText(/^No scheduled job/).waitFor();
    await section.getByRole('button', { name: 'Add a job' }).click();
    const form = section.getByRole('form', { name: 'Add a scheduled job' });
    // The command field says how its line is run.
    await expect(form.innerText()).resolves.toContain('sh -c');

    // A schedule the server refuses: its words, beside the field.
    await form.getByLabel('Job name').fill('nightly-report');
    await form.getByLabel('Schedule', { exact: true }).fill('every night');
    await form.getByLabel('Command', { exact: true }).fill(COMMAND);
    await form.getByRole('button', { name: 'Add the job' }).click();
    await form.getByText(/the schedule is not a cron expression/).waitFor();
    await expect(
      form.getByLabel('Schedule', { exact: true }).getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    await screenshot(page, 'service-jobs-form-refused');

    await form.getByLabel('Schedule', { exact: true }).fill('30 4 * * 1');
    await form.getByLabel('Time zone').fill('Europe/Paris');
    await form.getByLabel('Time limit (seconds)').fill('600');
    await form.getByRole('button', { name: 'Add the job' }).click();
    await section.getByText('Job nightly-report added').waitFor();
    const job = section.getByRole('region', { name: 'nightly-report' });
    await job.getByText('Enabled', { exact: true }).waitFor();
    await section.getByRole('button', { name: 'Close the job form' }).click();
    await expect(form.count()).resolves.toBe(0);
    // Sent as sh -c with the line whole; the compose file's first service by default.
    const [defined] = await jobs();
    expect(defined).toMatchObject({
      name: 'nightly-report',
      schedule: '30 4 * * 1',
      timezone: 'Europe/Paris',
      composeService: 'web',
      command: ['sh', '-c', COMMAND],
      enabled: true,
    });
    await job.getByText(`sh -c ${COMMAND}`).waitFor();
    await expect(job.innerText()).resolves.toMatch(/30 4 \* \* 1\s+in\s+Europe\/Paris/);
    await job.getByText('10 min', { exact: true }).waitFor();
    await expect(
      job
        .locator('dd')
        .filter({ hasText: /^never$/ })
        .count(),
    ).resolves.toBe(1);
    // The next run: a Monday at 04:30 in Paris, from now.
    await expect(job.locator('time').first().getAttribute('datetime')).resolves.toMatch(
      /^\d{4}-\d\d-\d\dT0[23]:30:00\.000Z$/,
    );

    await job.getByRole('button', { name: 'Run now' }).click();
    await job.getByText('Run started').waitFor();
    const runs = job.getByRole('table', { name: 'Runs of nightly-report' });
    const run = runs.getByRole('row').nth(1);
    await run.getByText('Failed', { exact: true }).waitFor({ timeout: 60_000 });
    await expect(run.getByRole('cell').nth(1).innerText()).resolves.toBe('manual');
    await expect(run.getByRole('cell').nth(4).innerText()).resolves.toBe('2');
    await expect(run.getByRole('cell').nth(5).innerText()).resolves.toBe('exited with code 2');
    // The job's summary follows: its last run failed.
    await job
      .locator('dd')
      .filter({ hasText: /^Failed/ })
      .waitFor();

    await run.getByRole('button', { name: 'Show output' }).click();
    const output = job.getByRole('log', { name: /^Output of the run started / });
    await output.getByText('hello from the dashboard').waitFor();
    await expect(output.innerText().then((text) => text.trim())).resolves.toBe(
      'hello from the dashboard',
    );
    await screenshot(page, 'service-jobs');
    await section.screenshot({ path: join(SCREENSHOTS, 'service-jobs-section.png') });
    await context.close();
  }, 120_000);

  it('shows a viewer the jobs, their runs and output, and no control to change them', async () => {
    const [context, page] = await signedIn(VIEWER, '/services');
    const section = jobsSection(page);
    const job = section.getByRole('region', { name: 'nightly-report' });
    await job.getByText(`sh -c ${COMMAND}`).waitFor();
    await expect(section.getByRole('button').allInnerTexts()).resolves.toEqual(['Recent runs']);
    await job.getByRole('button', { name: 'Recent runs' }).click();
    const run = job.getByRole('table', { name: 'Runs of nightly-report' }).getByRole('row').nth(1);
    await run.getByText('Failed', { exact: true }).waitFor();
    await run.getByRole('button', { name: 'Show output' }).click();
    await job.getByRole('log').getByText('hello from the dashboard').waitFor();
    await expect(section.getByRole('button').allInnerTexts()).resolves.toEqual([
      'Hide the runs',
      'Hide output',
    ]);
    await expect(section.getByRole('form').count()).resolves.toBe(0);
    await screenshot(page, 'service-jobs-viewer');
    // On a phone: the runs stack, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
            .document.documentElement.scrollWidth,
      ),
    ).resolves.toBeLessThanOrEqual(390);
    await screenshot(page, 'phone-service-jobs');
    await context.close();

    // The API refuses them anyway.
    const [{ jobId }] = await jobs();
    for (const [name, input] of [
      ['runScheduledJob', { jobId }],
      ['removeScheduledJob', { jobId }],
      ['defineScheduledJob', { serviceId, name: 'x', schedule: '@daily', command: ['true'] }],
    ] as const) {
      expect([name, (await call(t.url, 'POST', name, viewer, input)).status]).toEqual([name, 403]);
    }
  }, 60_000);

  it('disables the job (its settings kept) and removes it after a confirmation', async () => {
    const [context, page] = await signedIn(OWNER, '/services');
    const section = jobsSection(page);
    const job = section.getByRole('region', { name: 'nightly-report' });
    await job.getByRole('button', { name: 'Disable nightly-report' }).click();
    await job.getByText('Disabled', { exact: true }).waitFor();
    await job.getByText('none: disabled').waitFor();
    await job.getByRole('button', { name: 'Enable nightly-report' }).waitFor();
    const [disabled] = await jobs();
    expect(disabled).toMatchObject({
      enabled: false,
      schedule: '30 4 * * 1',
      timezone: 'Europe/Paris',
      command: ['sh', '-c', COMMAND],
    });

    await job.getByRole('button', { name: 'Remove nightly-report…' }).click();
    const confirm = job.getByRole('group', { name: 'Remove nightly-report?' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await job.getByRole('button', { name: 'Remove nightly-report…' }).click();
    await confirm.getByRole('button', { name: 'Yes, remove nightly-report' }).click();
    await section.getByText(/^No scheduled job/).waitFor();
    await expect(jobs()).resolves.toEqual([]);
    await context.close();
  }, 60_000);
});
