import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ServerDoc } from '../projections/servers.projection.js';
import type { ServiceDoc } from '../projections/services.projection.js';
import { READ_STORE, type ReadStore } from '../src/readstore/read-store.port.js';
import { AlertEvaluator, type ContainerSample } from '../src/runner/metrics/alert-evaluator.js';
import { MetricSamples } from '../src/runner/metrics/metric-samples.js';
import {
  ensureWebBundle,
  launchBrowser,
  screenshot,
  SCREENSHOTS,
  signedInPage,
  until,
} from './support/browser.js';
import { data, readyService } from './support/deployments.js';
import { API, GB, MB, recordHistory, recordLonePeak, WORKER } from './support/metric-history.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';
const VIEWER = 'viewer@example.com';
interface RuleView {
  ruleId: string;
  name: string;
  metric: string;
  warning: number | null;
  critical: number | null;
  forSeconds: number;
  enabled: boolean;
}

/**
 * The metrics sections of the servers and services pages in a real browser, against the real
 * service with an hour of readings recorded as the collector records them (no server is read):
 * the server's CPU, memory, disk and Docker disk charts with the level of its rule, the service's
 * containers with their state, health, restarts, CPU and memory, the alerts the evaluator raised
 * on them, and alert rules added in the form and removed after a confirmation. A viewer sees the
 * charts, alerts and rules, and no control to change them.
 */
describe('the dashboard: server and service metrics in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Record<string, string>;
  let viewer: Record<string, string>;
  let serverId: string;
  let serviceId: string;

  const rulesOf = async (target: Record<string, string>) =>
    data<{ rules: RuleView[] }>(await call(t.url, 'GET', 'alertRules', owner, target)).rules;
  const openAlerts = async (target: Record<string, string>) =>
    data<{ alerts: { detail: string }[] }>(await call(t.url, 'GET', 'alerts', owner, target))
      .alerts;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    viewer = await memberWithRole(t.url, owner, VIEWER, 'viewer');
    ({ serverId, serviceId } = await readyService(t.url, owner, { name: 'api' }));
    // A second server with one partial reading: charts without readings say so.
    const idle = await readyService(t.url, owner, { name: 'idle' });
    // A rule through the API, which the last reading (78%) exceeds at once.
    data(
      await call(t.url, 'POST', 'setAlertRule', owner, {
        serverId,
        name: 'cpu-high',
        metric: 'cpuPercent',
        warning: 70,
        critical: 90,
        forSeconds: 0,
      }),
    );
    const now = Date.now();
    const [server, api, worker] = await recordHistory(
      t.app.get(MetricSamples),
      { serverId, serviceId },
      now,
    );
    await recordLonePeak(t.app.get(MetricSamples), idle.serverId, now);
    // The evaluator's pass after the last reading: the rule's warning, the worker's health.
    const reads = t.app.get<ReadStore>(READ_STORE);
    const service = (await reads.collection<ServiceDoc>('services').get(serviceId))!;
    await t.app.get(AlertEvaluator).check(
      {
        server: (await reads.collection<ServerDoc>('servers').get(serverId))!,
        sample: server!,
        containers: [api!, worker!].map((sample) => ({
          sample: sample as ContainerSample,
          service,
        })),
      },
      new Date(now),
    );
    await until(
      async () =>
        (await openAlerts({ serverId })).length === 1 &&
        (await openAlerts({ serviceId })).length === 1,
      'the alerts raised',
    );
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signedIn = (email: string, path: string) =>
    signedInPage(browser, t.url, email, path, { viewport: { width: 1280, height: 1400 } });

  const metricsOf = (page: Page, card: string) =>
    page.getByRole('region', { name: card }).getByRole('region', { name: 'Metrics' });
  /** A chart's plot, by its label's start, with how many readings it draws. */
  const chart = (section: Locator, label: string | RegExp) =>
    section.getByRole('img', { name: label });
  const drawn = (plot: Locator) => plot.getAttribute('data-points');

  it('charts a server’s metrics with its rule’s level, shows its alert, adds and removes a rule', async () => {
    const [context, page] = await signedIn(OWNER, '/servers');
    const section = metricsOf(page, 'api-host');
    const cpu = chart(section, /^CPU: latest 78% at .+, highest 78%, 12 readings since /);
    await cpu.waitFor();
    await expect(drawn(cpu)).resolves.toBe('12');
    await expect(cpu.locator('path.chart-line').count()).resolves.toBe(1);
    await expect(cpu.locator('.chart-warning text').textContent()).resolves.toBe('warning 70%');
    await expect(cpu.locator('.chart-critical text').textContent()).resolves.toBe('critical 90%');
    await chart(section, /^Memory: latest 52%/).waitFor();
    await chart(section, /^Disk: latest 63.1%/).waitFor();
    await chart(section, /^Docker disk: latest 9\.\d+ GB/).waitFor();
    await expect(section.locator('svg[role="img"]').count()).resolves.toBe(4);
    const picker = section.getByRole('radiogroup', { name: 'Window' });
    await expect(picker.getByRole('radio', { name: '6h' }).isChecked()).resolves.toBe(true);

    // The alert the rule raised, with the value and its level.
    const alerts = section.getByRole('region', { name: 'Open alerts' });
    await alerts.getByText(/^cpu-high: cpuPercent 78 on server api-host, warning at 70/).waitFor();
    await alerts.getByText(/78% \(at 70%\)/).waitFor();

    // A rule added in the form: in the table, and in the API in its unit.
    const rules = section.getByRole('region', { name: 'Alert rules' });
    await rules.getByRole('row', { name: /cpu-high/ }).waitFor();
    await rules.getByRole('button', { name: 'Add a rule' }).click();
    const form = rules.getByRole('form', { name: 'Add an alert rule' });
    await expect(form.getByLabel('Metric').locator('option').allTextContents()).resolves.toEqual([
      'CPU (%)',
      'Memory (%)',
      'Disk (%)',
      'Docker disk (GB)',
    ]);
    await form.getByLabel('Rule name').fill('docker-disk');
    await form.getByLabel('Metric').selectOption('dockerDiskBytes');
    await form.getByLabel('Warning at (GB)').fill('9');
    await form.getByLabel('Critical at (GB)').fill('12.5');
    await form.getByLabel('For (seconds)').fill('600');
    await form.getByRole('button', { name: 'Add the rule' }).click();
    const row = rules.getByRole('row', { name: /docker-disk/ });
    await row.waitFor();
    await expect(row.getByRole('cell').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['Docker disk', '9 GB', '12.5 GB', '10 min']),
    );
    const added = (await rulesOf({ serverId })).find((r) => r.name === 'docker-disk');
    expect(added).toMatchObject({
      metric: 'dockerDiskBytes',
      warning: 9 * GB,
      critical: 12.5 * GB,
      forSeconds: 600,
      enabled: true,
    });
    // Its level is drawn on the Docker disk chart.
    await chart(section, /^Docker disk/)
      .locator('.chart-warning')
      .waitFor();

    // A refusal of the server shows beside its field.
    await form.getByLabel('Rule name').fill('mem');
    await form.getByLabel('Metric').selectOption('memoryPercent');
    await form.getByLabel('Warning at (%)').fill('90');
    await form.getByLabel('Critical at (%)').fill('80');
    await form.getByRole('button', { name: 'Add the rule' }).click();
    await form.getByText('critical is at or above warning').waitFor();
    await screenshot(page, 'alert-rule-form-refused');
    await rules.getByRole('button', { name: 'Close the rule form' }).click();
    await section.screenshot({ path: '/tmp/metrics-server.png' });
    await screenshot(page, 'server-metrics');

    // Removed after a confirmation.
    await row.getByRole('button', { name: 'Remove docker-disk…' }).click();
    await row.getByRole('button', { name: 'Keep it' }).click();
    await row.getByRole('button', { name: 'Remove docker-disk…' }).click();
    await row.getByRole('button', { name: 'Yes, remove docker-disk' }).click();
    await row.waitFor({ state: 'detached' });
    await until(
      async () => (await rulesOf({ serverId })).every((r) => r.name !== 'docker-disk'),
      'the rule removed',
    );
    await rules.getByRole('row', { name: /cpu-high/ }).waitFor();

    // Disabled, its settings kept: its levels leave the chart; enabled again.
    const cpuHigh = rules.getByRole('row', { name: /cpu-high/ });
    await cpuHigh.getByRole('button', { name: 'Disable cpu-high' }).click();
    await cpuHigh.getByText('Disabled', { exact: true }).waitFor();
    await cpu.locator('.chart-threshold').first().waitFor({ state: 'detached' });
    expect((await rulesOf({ serverId }))[0]).toMatchObject({
      name: 'cpu-high',
      enabled: false,
      warning: 70,
      critical: 90,
      forSeconds: 0,
    });
    await cpuHigh.getByRole('button', { name: 'Enable cpu-high' }).click();
    await cpu.locator('.chart-warning').waitFor();

    // Longer windows: hourly means, with their peaks.
    await picker.getByRole('radio', { name: '7d' }).check();
    await expect(picker.getByRole('radio', { name: '6h' }).isChecked()).resolves.toBe(false);
    await section
      .getByText(/hourly means, peaks dashed/)
      .first()
      .waitFor();
    await section.locator('.chart-peak').first().waitFor();
    await section.screenshot({ path: join(SCREENSHOTS, 'server-metrics-7d.png') });

    // The idle server: readings of its CPU only; the other charts say there is none.
    const idle = metricsOf(page, 'idle-host');
    await chart(idle, /^CPU: latest 3%/).waitFor();
    await chart(idle, 'Memory: no readings in this window').waitFor();
    await expect(idle.getByText('No readings in this window.').count()).resolves.toBe(3);
    await expect(idle.getByText('No open alert.').count()).resolves.toBe(1);
    // Over 7 days its one hourly mean (6%) has a peak (9%) with no neighbour: drawn as a point.
    await idle
      .getByRole('radiogroup', { name: 'Window' })
      .getByRole('radio', { name: '7d' })
      .check();
    await chart(idle, /^CPU: latest 6%/).waitFor();
    await idle.locator('circle.chart-peak').waitFor();
    await idle.screenshot({ path: join(SCREENSHOTS, 'server-metrics-7d-lone-peak.png') });
    await context.close();
  }, 120_000);

  it('charts each container of a service, shows its alert, adds and removes a rule', async () => {
    const [context, page] = await signedIn(OWNER, '/services');
    const section = metricsOf(page, 'api production');
    const api = section.getByRole('region', { name: `Container ${API}` });
    const cpu = chart(api, /^CPU: latest 22% at /);
    await cpu.waitFor();
    await expect(drawn(cpu)).resolves.toBe('12');
    await chart(api, /^Memory used: latest 175 MB/).waitFor();
    await api.getByText('Running', { exact: true }).waitFor();
    await api.getByText('Healthy', { exact: true }).waitFor();
    await api.getByText('0 restarts (0 in this window) · memory 35% of its limit').waitFor();
    const worker = section.getByRole('region', { name: `Container ${WORKER}` });
    await worker.getByText('Unhealthy', { exact: true }).waitFor();
    await worker.getByText(/^2 restarts \(1 in this window\)/).waitFor();
    await section
      .getByRole('region', { name: 'Open alerts' })
      .getByText(`container ${WORKER} of api (production) is unhealthy`)
      .waitFor();

    const rules = section.getByRole('region', { name: 'Alert rules' });
    await rules.getByText(/^No alert rule/).waitFor();
    await rules.getByRole('button', { name: 'Add a rule' }).click();
    const form = rules.getByRole('form', { name: 'Add an alert rule' });
    await expect(form.getByLabel('Metric').locator('option').allTextContents()).resolves.toEqual([
      'CPU (%)',
      'Memory (%)',
      'Memory used (MB)',
    ]);
    await form.getByLabel('Rule name').fill('api-memory');
    await form.getByLabel('Metric').selectOption('memoryBytes');
    await form.getByLabel('Warning at (MB)').fill('150');
    await form.getByLabel('Critical at (MB)').fill('250');
    await form.getByRole('button', { name: 'Add the rule' }).click();
    const row = rules.getByRole('row', { name: /api-memory/ });
    await row.waitFor();
    await expect(row.getByRole('cell').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['Memory used', '150 MB', '250 MB', '5 min']),
    );
    expect(await rulesOf({ serviceId })).toMatchObject([
      { name: 'api-memory', metric: 'memoryBytes', warning: 150 * MB, critical: 250 * MB },
    ]);
    await chart(api, /^Memory used/)
      .locator('.chart-warning')
      .waitFor();
    await rules.getByRole('button', { name: 'Close the rule form' }).click();
    await section.screenshot({ path: '/tmp/metrics-service.png' });
    await screenshot(page, 'service-metrics');

    await row.getByRole('button', { name: 'Remove api-memory…' }).click();
    await row.getByRole('button', { name: 'Yes, remove api-memory' }).click();
    await rules.getByText(/^No alert rule/).waitFor();
    await expect(rulesOf({ serviceId })).resolves.toEqual([]);
    await context.close();
  }, 120_000);

  it('shows a viewer the charts, alerts and rules, and no control to change them', async () => {
    const [context, page] = await signedIn(VIEWER, '/servers');
    const section = metricsOf(page, 'api-host');
    await chart(section, /^CPU: latest 78%/).waitFor();
    const rules = section.getByRole('region', { name: 'Alert rules' });
    await rules.getByRole('row', { name: /cpu-high/ }).waitFor();
    await expect(rules.getByRole('button').count()).resolves.toBe(0);
    await expect(rules.getByRole('form').count()).resolves.toBe(0);
    // Views, not changes: the window and the resolved alerts are the viewer's to pick.
    await expect(section.getByRole('button').count()).resolves.toBe(0);
    await section.getByRole('radio', { name: '1h' }).check();
    await chart(section, /^CPU: latest 78% at .+, 12 readings since /).waitFor();
    await section.getByRole('checkbox', { name: 'Show the resolved ones too' }).check();
    await section
      .getByRole('region', { name: 'Recent alerts' })
      .getByText(/^cpu-high: /)
      .waitFor();
    await screenshot(page, 'server-metrics-viewer');
    // On a phone: the charts take the width, the rules stack, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await chart(section, /^CPU: latest 78%/).waitFor();
    // The charts measure their width and draw again when it changes: once they have, nothing
    // is wider than the screen.
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
          .document.documentElement.scrollWidth <= 390,
      undefined,
      { timeout: 10_000 },
    );
    await screenshot(page, 'phone-server-metrics');
    await context.close();
    const ruleId = (await rulesOf({ serverId }))[0]!.ruleId;
    for (const [name, input] of [
      ['removeAlertRule', { ruleId }],
      ['setAlertRule', { serverId, name: 'x', metric: 'cpuPercent', warning: 1 }],
    ] as const) {
      expect([name, (await call(t.url, 'POST', name, viewer, input)).status]).toEqual([name, 403]);
    }
  }, 60_000);
});
