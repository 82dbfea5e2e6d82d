import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Locator, Page } from 'playwright-core';
import { BackupScheduler } from '../src/runner/backups/backup-scheduler.js';
import { startBackupTestApp, type BackupTestApp } from './support/backups.js';
import { ensureWebBundle, launchBrowser, signedInPage } from './support/browser.js';
import { data } from './support/deployments.js';
import { call, memberWithRole } from './support/identity.js';
import { startS3, type TestS3 } from './support/s3.js';
import type { TestApp } from './support/test-app.js';
import { TestClock } from './support/test-clock.js';

const OWNER = 'owner@example.com';
const VIEWER = 'viewer@example.com';
const OPERATOR = 'operator@example.com';
/** Typed once into the form: never on a page, never in an answer. */
const SECRET = 'never-shown-7f3a9c1e-secret-access-key';
/** Where the screenshots go (the file names say what each shows). */
const shot = (name: string) => `/tmp/${name}.png`;

interface ScheduleView {
  schedule: string;
  timezone: string;
  retention: { keepLast: number; keepDaily: number; keepWeekly: number };
  enabled: boolean;
  offsite: unknown;
  command: boolean;
  volumes: string[];
  restoreTest: unknown;
  nextRunAt: string | null;
}

/**
 * Backup schedules, backups and S3 targets in the dashboard, in a real browser, against the real
 * service with a real sshd (its docker a fake: no engine) and S3-compatible storage (s3rver): an
 * S3 target added through its form, its secret never shown; a schedule set through the form
 * (a refusal shown beside its field), shown, changed and removed; the backup it takes listed as
 * scheduled with its copy and restore test; a restore test, a backup and a copy check started
 * from the list. A viewer sees it all and no control.
 */
describe('the dashboard: backup schedules in a real browser', () => {
  const clock = new TestClock();
  let s3: TestS3;
  let app: BackupTestApp;
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let manualId: string;
  let browser: Browser;

  const schedule = async () =>
    data<{ schedule: ScheduleView | null }>(
      await call(t.url, 'GET', 'backupSchedule', owner, { serviceId }),
    ).schedule;

  beforeAll(async () => {
    ensureWebBundle();
    s3 = await startS3();
    app = await startBackupTestApp(clock, { loopbackTargets: true });
    ({ t, owner, serviceId } = app);
    await memberWithRole(t.url, owner, VIEWER, 'viewer');
    await memberWithRole(t.url, owner, OPERATOR, 'operator');
    // A backup taken by hand, before any schedule.
    manualId = data<{ backupId: string }>(
      await call(t.url, 'POST', 'triggerBackup', owner, { serviceId }),
    ).backupId;
    // A named volume in the compose file, offered by name before any backup of it.
    const { compose } = data<{ compose: string }>(
      await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }),
    );
    data(
      await call(t.url, 'POST', 'updateService', owner, {
        serviceId,
        compose: `${compose.trimEnd()}\nvolumes:\n  data: {}\n`,
      }),
    );
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await s3?.stop();
  });

  // Tall enough for the whole dialog in one screenshot.
  const signedIn = (email: string, path: string) =>
    signedInPage(browser, t.url, email, path, { viewport: { width: 1280, height: 2200 } });

  async function backupsDialog(page: Page): Promise<Locator> {
    const card = page.getByRole('region', { name: 'db production' });
    await card.getByRole('button', { name: 'Backups…' }).click();
    return page.getByRole('dialog', { name: 'Backups of db' });
  }

  const items = (dialog: Locator) =>
    dialog
      .getByRole('list', { name: 'Backups of db' })
      .getByRole('listitem', { name: /^Backup of/ });

  it('adds an S3 target through its form; the secret is never shown', async () => {
    const [context, page] = await signedIn(OWNER, '/servers');
    const section = page.getByRole('region', { name: 'Backup storage: S3 targets' });
    await section.getByText('No S3 target yet.').waitFor();
    await section.getByRole('button', { name: 'Add an S3 target' }).click();
    const form = section.getByRole('form', { name: 'Add an S3 target' });
    await form.getByLabel('Name', { exact: true }).fill('Archive');
    await form.getByLabel('Target id').fill('archive');
    // An endpoint the server refuses: its words, beside the field.
    await form.getByLabel('Endpoint (optional)').fill('http://s3.example.com');
    await form.getByLabel('Bucket').fill(s3.bucket);
    await form.getByLabel('Key prefix (optional)').fill('slipway/');
    await form.getByLabel('Access key id').fill(s3.accessKeyId);
    await form.getByLabel('Secret access key').fill(SECRET);
    await form.getByRole('button', { name: 'Add the S3 target' }).click();
    // The server's answer first, then the field it marks.
    await form.getByText('Please correct the fields marked below.').waitFor();
    await expect(form.getByLabel('Endpoint (optional)').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );

    await form.getByLabel('Endpoint (optional)').fill(s3.endpoint);
    await form.getByRole('button', { name: 'Add the S3 target' }).click();
    await section.getByText(/^S3 target archive saved/).waitFor();
    await expect(form.count()).resolves.toBe(0);
    const card = section.getByRole('region', { name: 'Archive' });
    await card.getByText(s3.endpoint).waitFor();
    await card.getByText('stored sealed, not shown').waitFor();
    await expect(card.innerText()).resolves.toContain('slipway/');

    const answer = await call(t.url, 'GET', 's3Targets', owner);
    expect(data<{ targets: unknown[] }>(answer).targets).toEqual([
      expect.objectContaining({
        targetId: 'archive',
        displayName: 'Archive',
        endpoint: s3.endpoint,
        bucket: s3.bucket,
        prefix: 'slipway/',
        accessKeyId: s3.accessKeyId,
      }),
    ]);
    expect(JSON.stringify(answer.body)).not.toContain(SECRET);
    // Changed, the form comes filled in but for the secret, which is typed again or kept.
    await card.getByRole('button', { name: 'Change Archive…' }).click();
    const change = section.getByRole('form', { name: 'Change S3 target archive' });
    await expect(change.getByLabel('Bucket').inputValue()).resolves.toBe(s3.bucket);
    await expect(change.getByLabel('Secret access key').inputValue()).resolves.toBe('');
    await expect(page.content()).resolves.not.toContain(SECRET);
    await page.screenshot({ path: shot('backup-s3-targets'), fullPage: true });
    await section.getByRole('button', { name: 'Close the S3 target form' }).click();
    await context.close();
  }, 60_000);

  it('sets a schedule through the form, shows it, and changes it', async () => {
    const [context, page] = await signedIn(OWNER, '/services');
    const dialog = await backupsDialog(page);
    await dialog.getByText(/^No backup schedule/).waitFor();
    await dialog.getByRole('button', { name: 'Set a schedule' }).click();
    const form = dialog.getByRole('form', { name: 'Backup schedule' });
    // The service's backup command is run by default.
    await expect(form.getByLabel('Run the backup command').isChecked()).resolves.toBe(true);
    await form.getByLabel('Schedule (cron)').fill('every night');
    await form.getByRole('button', { name: 'Save the schedule' }).click();
    await form.getByText(/not a cron expression/).waitFor();
    await expect(form.getByLabel('Schedule (cron)').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
    await page.screenshot({ path: shot('backup-schedule-form'), fullPage: true });

    await form.getByLabel('Schedule (cron)').fill('0 * * * *');
    await form.getByLabel('Time zone').fill('Europe/Paris');
    await form.getByLabel('The newest').fill('5');
    await form.getByLabel('One a day, days').fill('3');
    await form.getByLabel('One a week, weeks').fill('2');
    await form.getByLabel('An S3 bucket').check();
    await expect(form.getByLabel('S3 target').inputValue()).resolves.toBe('archive');
    await form.getByLabel('Restore each scheduled backup').check();
    await form.getByLabel('Test image').fill('postgres:16');
    await form.getByLabel('Test command').fill('pg_restore --list');
    await form.getByLabel('Test time limit (seconds)').fill('600');
    await form.getByRole('button', { name: 'Save the schedule' }).click();
    await dialog.getByText('Schedule saved.').waitFor();
    await expect(form.count()).resolves.toBe(0);

    const set = await schedule();
    expect(set).toMatchObject({
      schedule: '0 * * * *',
      timezone: 'Europe/Paris',
      retention: { keepLast: 5, keepDaily: 3, keepWeekly: 2 },
      enabled: true,
      offsite: { s3TargetId: 'archive' },
      command: true,
      volumes: [],
      restoreTest: {
        image: 'postgres:16',
        command: ['sh', '-c', 'pg_restore --list'],
        timeLimitSeconds: 600,
      },
    });
    // The next hour, in Paris as in UTC.
    expect(set!.nextRunAt).toMatch(/T\d\d:00:00\.000Z$/);
    const shown = dialog.getByRole('region', { name: 'Schedule' });
    const text = await shown.innerText();
    expect(text).toMatch(/0 \* \* \* \*\s+in\s+Europe\/Paris/);
    expect(text).toContain('the newest 5, one a day for 3 days, one a week for 2 weeks');
    expect(text).toContain('the backup command');
    expect(text).toContain('S3 Archive (archive)');
    expect(text).toContain('postgres:16 running sh -c pg_restore --list (at most 10 min)');
    await expect(shown.locator('time').first().getAttribute('datetime')).resolves.toBe(
      set!.nextRunAt,
    );
    await shown.getByText('Enabled', { exact: true }).waitFor();

    // Changed: the form comes filled in with the schedule; a volume the compose file does not
    // declare is refused beside its field; then every minute, the rest kept.
    await shown.getByRole('button', { name: 'Change the schedule' }).click();
    await expect(form.getByLabel('Schedule (cron)').inputValue()).resolves.toBe('0 * * * *');
    await expect(form.getByLabel('An S3 bucket').isChecked()).resolves.toBe(true);
    await expect(form.getByLabel('Test command').inputValue()).resolves.toBe('pg_restore --list');
    await form.getByText('The compose file declares data.', { exact: false }).waitFor();
    await form.getByLabel('Named volumes').fill('nope');
    await form.getByRole('button', { name: 'Save the schedule' }).click();
    await form.getByText('one of: data').waitFor();
    await expect(form.getByLabel('Named volumes').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
    await form.getByLabel('Named volumes').fill('');
    await form.getByLabel('Schedule (cron)').fill('* * * * *');
    await form.getByRole('button', { name: 'Save the schedule' }).click();
    await dialog.getByText('Schedule saved.').waitFor();
    const { timezone, retention, enabled, offsite, command, volumes, restoreTest } = set!;
    expect(await schedule()).toMatchObject({
      ...{ timezone, retention, enabled, offsite, command, volumes, restoreTest },
      schedule: '* * * * *',
    });
    await context.close();
  }, 60_000);

  it('lists the scheduled backup with its copy and restore test; tests, backs up and verifies from the list', async () => {
    // The schedule comes due (each minute): the scheduler takes it, copies and tests it.
    const due = Date.parse((await schedule())!.nextRunAt!);
    clock.advance(Math.max(0, due - clock.now().getTime() + 200));
    await t.app.get(BackupScheduler).pass();

    const [context, page] = await signedIn(OWNER, '/services');
    const dialog = await backupsDialog(page);
    await dialog.getByRole('region', { name: 'Schedule' }).getByText('Succeeded').waitFor();
    const list = items(dialog);
    await list.nth(1).waitFor();
    await expect(list.count()).resolves.toBe(2);
    const [scheduled, manual] = [list.nth(0), list.nth(1)];
    await scheduled.getByText('scheduled', { exact: true }).waitFor();
    await expect(scheduled.innerText()).resolves.toMatch(/Of\s+backup command/i);
    await expect(scheduled.innerText()).resolves.toMatch(/Last restore test\s+Passed/i);
    await expect(scheduled.innerText()).resolves.toMatch(/S3 Archive \(archive\) Copied/);
    await expect(manual.getByText('scheduled', { exact: true }).count()).resolves.toBe(0);
    await expect(manual.innerText()).resolves.toMatch(/never tested/);
    await expect(manual.innerText()).resolves.toMatch(/Copies\s+none/i);

    // The backup taken by hand, tested with the schedule's restore test.
    await manual.getByRole('button', { name: 'Test restore' }).click();
    await manual.getByText('Restore test passed: the backup restores.').waitFor();
    await manual.getByText('Passed', { exact: true }).waitFor();
    const backups = data<{ items: { id: string; lastRestoreTest: { passed: boolean } | null }[] }>(
      await call(t.url, 'GET', 'backups', owner, { serviceId }),
    ).items;
    expect(backups.find((b) => b.id === manualId)?.lastRestoreTest?.passed).toBe(true);

    await dialog.getByRole('button', { name: 'Verify copies' }).click();
    await dialog.getByText('1 copy read back: all intact.').waitFor();
    await scheduled.getByText(/^read back/).waitFor();
    const { copies } = data<{ copies: { status: string; verifiedAt: string | null }[] }>(
      await call(t.url, 'GET', 'backupCopies', owner, { serviceId }),
    );
    expect(copies).toEqual([expect.objectContaining({ serverId: 's3:archive', status: 'copied' })]);
    expect(copies[0].verifiedAt).not.toBeNull();

    await dialog.getByRole('button', { name: 'Back up volume data now' }).waitFor();
    await dialog.getByRole('button', { name: 'Back up now' }).click();
    await dialog.getByText(/^Backup taken \(backup command/).waitFor();
    await list.nth(2).waitFor();
    await page.screenshot({ path: shot('backup-schedule'), fullPage: true });
    await expect(page.content()).resolves.not.toContain(SECRET);
    await context.close();
  }, 120_000);

  it('shows a viewer the schedule and the backups, and no control', async () => {
    const [context, page] = await signedIn(VIEWER, '/services');
    const dialog = await backupsDialog(page);
    const shown = dialog.getByRole('region', { name: 'Schedule' });
    await shown.getByText('S3 target archive').waitFor();
    await items(dialog).nth(2).waitFor();
    await expect(items(dialog).count()).resolves.toBe(3);
    await expect(dialog.getByRole('button').allInnerTexts()).resolves.toEqual(['Close']);
    await page.screenshot({ path: shot('backup-schedule-viewer'), fullPage: true });
    await page.keyboard.press('Escape');
    await page.goto(`${t.url}/servers`);
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    await page.getByRole('region', { name: 'loopback' }).waitFor();
    await expect(page.getByText('Backup storage: S3 targets').count()).resolves.toBe(0);
    await context.close();
  }, 60_000);

  it('lets an operator choose the S3 target by its name', async () => {
    const [context, page] = await signedIn(OPERATOR, '/services');
    const dialog = await backupsDialog(page);
    const shown = dialog.getByRole('region', { name: 'Schedule' });
    await shown.getByText('S3 Archive (archive)').waitFor();
    await shown.getByRole('button', { name: 'Change the schedule' }).click();
    const form = dialog.getByRole('form', { name: 'Backup schedule' });
    const select = form.getByLabel('S3 target', { exact: true });
    await expect(select.inputValue()).resolves.toBe('archive');
    await expect(select.locator('option').allInnerTexts()).resolves.toEqual(['Archive (archive)']);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  }, 60_000);

  it('removes the schedule after a confirmation, then the S3 target', async () => {
    const [context, page] = await signedIn(OWNER, '/services');
    const dialog = await backupsDialog(page);
    const shown = dialog.getByRole('region', { name: 'Schedule' });
    // On a phone, the dialog with the form open: nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await shown.getByRole('button', { name: 'Change the schedule' }).click();
    await dialog.getByRole('form', { name: 'Backup schedule' }).waitFor();
    await expect(
      dialog.evaluate((element) => element.scrollWidth <= element.clientWidth),
    ).resolves.toBe(true);
    await expect(
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
            .document.documentElement.scrollWidth,
      ),
    ).resolves.toBeLessThanOrEqual(390);
    await dialog.screenshot({ path: shot('backup-schedule-phone') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 1280, height: 2200 });
    await shown.getByRole('button', { name: 'Remove the schedule…' }).click();
    const confirm = shown.getByRole('group', { name: 'Remove the schedule?' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await shown.getByRole('button', { name: 'Remove the schedule…' }).click();
    await confirm.getByRole('button', { name: 'Yes, remove the schedule' }).click();
    await shown.getByText('Schedule removed: the backups it took stay.').waitFor();
    await shown.getByText(/^No backup schedule/).waitFor();
    await expect(schedule()).resolves.toBeNull();
    await expect(items(dialog).count()).resolves.toBe(3);
    await page.keyboard.press('Escape');

    await page.goto(`${t.url}/servers`);
    const section = page.getByRole('region', { name: 'Backup storage: S3 targets' });
    await section.getByRole('button', { name: 'Remove Archive…' }).click();
    await section.getByRole('button', { name: 'Yes, remove Archive' }).click();
    await section.getByText('No S3 target yet.').waitFor();
    const answer = await call(t.url, 'GET', 's3Targets', owner);
    expect(data<{ targets: unknown[] }>(answer).targets).toEqual([]);
    await context.close();
  }, 60_000);
});
