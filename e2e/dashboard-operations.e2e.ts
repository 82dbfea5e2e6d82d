import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  ensureWebBundle,
  launchBrowser,
  logInThroughPage,
  screenshot,
  signedInPage,
} from './support/browser.js';
import { runToSuccess } from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { ALLOW_LOOPBACK, startSshd, type TestSshd } from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';
const OPERATOR = 'operator@example.com';
const VIEWER = 'viewer@example.com';

const seeHeading = (page: Page, title: string) =>
  page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();

/**
 * The pages that change things, in a real browser against the real service and a real sshd on
 * loopback: register a server (its host key fetched by Slipway, compared, approved), check it,
 * register a service, deploy it with its plan shown first, have another person approve it (the
 * requester's own approval refused as on the API), cancel, roll back; a viewer sees no control
 * it cannot use, and the API refuses those calls anyway.
 */
describe('the dashboard: servers, services, deploys and approvals in a real browser', () => {
  let t: TestApp;
  let sshd: TestSshd;
  let browser: Browser;
  let origin: string;
  let owner: Record<string, string>;
  let viewer: Record<string, string>;

  beforeAll(async () => {
    ensureWebBundle();
    sshd = await startSshd();
    t = await startTestApp({
      notes: false,
      config: { serverAddressPolicy: ALLOW_LOOPBACK, serverCheckTimeoutSeconds: 10 },
    });
    origin = t.url;
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    await memberWithRole(t.url, owner, OPERATOR, 'operator');
    viewer = await memberWithRole(t.url, owner, VIEWER, 'viewer');
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await sshd?.stop();
  });

  const signedIn = (email: string, path: string) => signedInPage(browser, origin, email, path);

  let deploymentId: string;

  it('registers a server with the host key Slipway fetched, approves it after comparing, and checks it', async () => {
    const [context, page] = await signedIn(OWNER, '/servers');
    await seeHeading(page, 'Servers');
    await page.getByText('No server yet.').waitFor();
    await screenshot(page, 'servers-empty');

    await page.getByRole('button', { name: 'Register a server' }).click();
    const form = page.getByRole('form', { name: 'Register a server' });
    await form.getByLabel('Name').fill('Web 1');
    await form.getByLabel('Host', { exact: true }).fill(sshd.host);
    await form.getByLabel('SSH port').fill(String(sshd.port));
    await form.getByLabel('SSH user').fill(sshd.user);
    await form.getByLabel('Private key').fill(sshd.clientKey);
    await form.getByRole('button', { name: 'Fetch the host key' }).click();
    await form.getByText(`presents the ssh-ed25519 key ${sshd.fingerprint}`).waitFor();
    await expect(form.getByLabel('Host key fingerprint').inputValue()).resolves.toBe(
      sshd.fingerprint,
    );
    // A refused field is named beside it.
    await form.getByRole('button', { name: 'Register the server' }).click();
    const name = form.getByLabel('Name');
    await form.locator('[aria-invalid="true"]').first().waitFor();
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'servers-register-field-error');
    await name.fill('web-1');
    await form.getByRole('button', { name: 'Register the server' }).click();
    await page.getByText('The server is registered.').waitFor();

    const card = page.getByRole('region', { name: 'web-1' });
    await card.getByText('Host key not approved').waitFor();
    await card.getByRole('button', { name: 'Fetch the host key now' }).click();
    await card.getByText('The host presents the pinned key.').waitFor();
    await screenshot(page, 'servers-approve-host-key');
    await card.getByRole('button', { name: 'Approve this host key' }).click();
    await card.getByText('approved', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Check the connection' }).click();
    await card.getByText(/^Connected to /).waitFor();
    await expect(card.innerText()).resolves.toContain('key accepted: yes');
    await screenshot(page, 'servers');
    await context.close();
  }, 60_000);

  it('registers a service whose env secret is masked, with an approval rule', async () => {
    const [context, page] = await signedIn(OWNER, '/services');
    await page.getByRole('button', { name: 'Register a service' }).click();
    const form = page.getByRole('form', { name: 'Register a service' });
    await form.getByLabel('Name').fill('shop');
    await form.getByLabel('Image repository').fill('ghcr.io/acme/api');
    await form
      .getByLabel('Compose file')
      .fill('services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n    ports: ["8080:80"]\n');
    await form.getByRole('button', { name: 'Add a variable' }).click();
    await form.getByLabel('Name of variable 1').fill('DATABASE_URL');
    await form.getByLabel('Value of variable 1').fill('postgres://db/shop-secret');
    await form.getByRole('checkbox', { name: 'Secret' }).check();
    await form.getByRole('button', { name: 'Add a variable' }).click();
    await form.getByLabel('Name of variable 2').fill('bad name');
    await form.getByLabel('Value of variable 2').fill('x');
    await form.getByLabel('Approval rule').selectOption('all-but-admins');
    await form.getByRole('button', { name: 'Register the service' }).click();
    await form.getByText(/Variable 2: env var names are letters, digits and _/).waitFor();
    await screenshot(page, 'services-register-field-error');
    await form.getByRole('button', { name: 'Remove variable 2' }).click();
    await form.getByRole('button', { name: 'Register the service' }).click();
    await page.getByText('Service shop registered.').waitFor();
    const card = page.getByRole('region', { name: 'shop production' });
    await card.getByText('secret, not shown').waitFor();
    expect(await page.content()).not.toContain('shop-secret');
    await screenshot(page, 'services');
    await context.close();
  }, 60_000);

  it('deploys with the plan shown first; the requester cannot approve; another person does', async () => {
    const [operatorContext, page] = await signedIn(OPERATOR, '/services');
    const card = page.getByRole('region', { name: 'shop production' });
    await card.getByRole('button', { name: 'Deploy…' }).click();
    await card.getByLabel('Image tag').fill('2.0.0');
    await card.getByRole('button', { name: 'Show the plan' }).click();
    const plan = card.getByRole('region', { name: 'Plan for ghcr.io/acme/api:2.0.0' });
    await plan.waitFor();
    await expect(plan.innerText()).resolves.toContain('Needs an approval by another person');
    await screenshot(page, 'deploy-plan');
    await card.getByRole('button', { name: 'Ask for approval' }).click();
    await card.getByText(/Waiting for approval by another person/).waitFor();

    await page.goto(`${origin}/approvals`);
    await seeHeading(page, 'Approvals');
    const request = page.getByRole('listitem').filter({ hasText: 'deploy shop' });
    await request.getByLabel('Note (optional)').fill('my own change');
    await request.getByRole('button', { name: 'Approve' }).click();
    // The API's own refusal, in its words.
    await expect(request.getByRole('alert').innerText()).resolves.toBe(
      'Nobody decides their own request.',
    );
    await screenshot(page, 'approvals-self-refused');
    await operatorContext.close();

    const [ownerContext, ownerPage] = await signedIn(OWNER, '/approvals');
    const pending = ownerPage.getByRole('listitem').filter({ hasText: 'deploy shop' });
    // What approving runs, as the request froze it: the image and the server, not only a reason.
    await pending.getByText('ghcr.io/acme/api:2.0.0', { exact: true }).waitFor();
    await expect(pending.innerText()).resolves.toMatch(/server\s+web-1/i);
    await pending.getByLabel('Note (optional)').fill('looks right');
    await screenshot(ownerPage, 'approvals');
    await pending.getByRole('button', { name: 'Approve' }).click();
    await ownerPage.getByText('No pending request.').waitFor();
    await ownerPage.getByLabel('Status').selectOption('approved');
    const approved = ownerPage.getByRole('listitem').filter({ hasText: 'deploy shop' });
    await approved.getByText('“looks right”', { exact: false }).waitFor();
    await approved.getByRole('link', { name: 'The deployment it ran' }).click();
    await ownerPage.waitForURL(/\/deployments\/[0-9a-f-]{36}$/);
    deploymentId = ownerPage.url().split('/').pop()!;

    // The runner is off here: the deployment waits in the queue, and can be cancelled.
    await ownerPage.getByText('Queued', { exact: true }).first().waitFor();
    await ownerPage.getByRole('button', { name: 'Cancel the deployment…' }).click();
    await ownerPage.getByRole('button', { name: 'Yes, cancel it' }).click();
    // Live: the status changes on the page without a reload.
    await ownerPage.getByText('Cancelled', { exact: true }).first().waitFor();
    await screenshot(ownerPage, 'deployment-cancelled');
    await ownerContext.close();
  }, 90_000);

  it('rolls back to a succeeded deployment, its plan first', async () => {
    const inventory = await call(t.url, 'GET', 'infrastructureInventory', owner);
    const serviceId = (
      inventory.body as {
        result: { data: { json: { servers: { services: { id: string }[] }[] } } };
      }
    ).result.data.json.servers[0].services[0].id;
    const triggered = await call(t.url, 'POST', 'triggerDeploy', owner, {
      serviceId,
      imageTag: 'ghcr.io/acme/api:1.9.0',
    });
    const first = (triggered.body as { result: { data: { json: { deploymentId: string } } } })
      .result.data.json.deploymentId;
    await runToSuccess(t.app, first, serviceId, 'ghcr.io/acme/api:1.9.0');

    const [context, page] = await signedIn(OWNER, `/deployments/${first}`);
    await page.getByRole('button', { name: 'Roll back to this deployment…' }).click();
    const plan = page.getByRole('region', {
      name: 'Rollback plan: back to ghcr.io/acme/api:1.9.0',
    });
    await plan.waitFor();
    await screenshot(page, 'rollback-plan');
    await page.getByRole('button', { name: 'Roll back', exact: true }).click();
    await page.getByRole('link', { name: 'Follow the rollback' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(first));
    await page.getByText('rollback', { exact: false }).first().waitFor();
    await context.close();
  }, 60_000);

  it('charts the delivery metrics on the overview, and the audit chain verifies after it all', async () => {
    const [context, page] = await signedIn(OWNER, '/');
    const metrics = page.getByRole('region', { name: 'Delivery metrics' });
    await metrics.getByText('Deployment frequency').waitFor();
    await metrics.locator('.delivery-chart canvas').first().waitFor();
    await expect(
      metrics.getByRole('img', { name: /Deployments per day over 30 days: \d+ finished/ }).count(),
    ).resolves.toBe(1);
    await expect(metrics.innerText()).resolves.toMatch(/shop\s+production/);
    await metrics.getByLabel('Window').selectOption('7');
    await metrics.getByRole('img', { name: /over 7 days/ }).waitFor();
    await screenshot(page, 'overview-metrics');

    await page.goto(`${origin}/audit?action=ApprovalGranted`);
    const entries = page.getByRole('region', { name: 'Entries' }).getByRole('listitem');
    await entries.first().waitFor();
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    await page.getByRole('status').filter({ hasText: 'Verified' }).waitFor();
    await context.close();
  }, 60_000);

  it('fits a phone-sized screen: no page scrolls sideways', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${origin}/login?returnTo=%2Fservices`);
    await logInThroughPage(page, OWNER);
    await page.waitForURL(`${origin}/services`);
    const card = page.getByRole('region', { name: 'shop production' });
    await card.getByRole('button', { name: 'Deploy…' }).click();
    await card.getByLabel('Image tag').fill('2.1.0');
    await card.getByRole('button', { name: 'Show the plan' }).click();
    await card.getByRole('region', { name: /Plan for/ }).waitFor();
    const width = () =>
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
            .document.documentElement.scrollWidth,
      );
    await screenshot(page, 'phone-services-deploy');
    await expect(width()).resolves.toBeLessThanOrEqual(390);
    for (const [path, ready] of [
      ['/servers', 'web-1'],
      ['/approvals?status=approved', 'Approvals'],
      ['/audit', 'Audit trail'],
      ['/agents', 'Agents and tokens'],
      ['/members', 'Invites'],
      ['/notifications', 'Deliveries'],
      ['/', 'Delivery metrics'],
    ] as const) {
      await page.goto(`${origin}${path}`);
      await page.getByRole('heading', { name: ready }).first().waitFor();
      expect([path, (await width()) <= 390]).toEqual([path, true]);
    }
    await page.locator('.delivery-chart canvas').first().waitFor();
    await screenshot(page, 'phone-overview-metrics');
    await context.close();
  }, 60_000);

  it('shows a viewer no control it cannot use, and the API refuses those calls anyway', async () => {
    const [context, page] = await signedIn(VIEWER, '/servers');
    await page.getByRole('region', { name: 'web-1' }).waitFor();
    const controls = () => page.getByRole('button').allInnerTexts();
    await expect(controls()).resolves.toEqual(['Log out']);
    await screenshot(page, 'viewer-servers');
    await page.goto(`${origin}/services`);
    await page.getByRole('region', { name: 'shop production' }).waitFor();
    // Only what a viewer may read: the webhooks and backups open without controls to change them.
    await expect(controls()).resolves.toEqual(['Log out', 'Deploy webhooks…', 'Backups…']);
    await page.goto(`${origin}/approvals?status=approved`);
    await page.getByRole('listitem').first().waitFor();
    await expect(controls()).resolves.toEqual(['Log out']);
    await page.goto(`${origin}/deployments/${deploymentId}`);
    await page.getByRole('region', { name: 'Deployment' }).waitFor();
    await expect(controls()).resolves.toEqual(['Log out']);
    await context.close();

    for (const [name, input] of [
      [
        'registerServer',
        { name: 'x', host: '10.0.0.9', sshUser: 'd', privateKey: 'k', hostKeyFingerprint: 'f' },
      ],
      ['triggerDeploy', { serviceId: '00000000-0000-4000-8000-000000000001', imageTag: 'a:1' }],
      ['approveRequest', { approvalId: '00000000-0000-4000-8000-000000000001' }],
      ['cancelDeployment', { deploymentId }],
    ] as const) {
      const res = await call(t.url, 'POST', name, viewer, input);
      expect([name, res.status, (res.body as { error: { code: string } }).error.code]).toEqual([
        name,
        403,
        'FORBIDDEN',
      ]);
    }
  }, 60_000);

  it('follows a running deployment’s log live, over the log stream', async () => {
    const inventory = await call(t.url, 'GET', 'infrastructureInventory', owner);
    const serviceId = (
      inventory.body as {
        result: { data: { json: { servers: { services: { id: string }[] }[] } } };
      }
    ).result.data.json.servers[0].services[0].id;
    // The rollback above is still queued (no runner here): out of the way, so this one can start.
    const queued = await call(t.url, 'GET', 'recentDeployments', owner, { status: 'queued' });
    for (const { id } of (
      queued.body as { result: { data: { json: { items: { id: string }[] } } } }
    ).result.data.json.items) {
      expect(
        (await call(t.url, 'POST', 'cancelDeployment', owner, { deploymentId: id })).status,
      ).toBe(200);
    }
    const res = await call(t.url, 'POST', 'triggerDeploy', owner, {
      serviceId,
      imageTag: 'ghcr.io/acme/api:3.0.0',
    });
    const id = (res.body as { result: { data: { json: { deploymentId: string } } } }).result.data
      .json.deploymentId;
    const [context, page] = await signedIn(OWNER, `/deployments/${id}`);
    await page.getByText('Following the log as it is written.').waitFor();
    const { DeploymentStateMachine } =
      await import('../src/deployments/deployment-state-machine.js');
    const { DeploymentLogStore } = await import('../src/deployments/deployment-log-store.js');
    const { anonymousContext } = await import('../src/kernel/request-context.js');
    const ctx = { ...anonymousContext('runner', 'runner', null), authMethod: 'system' as const };
    const machine = t.app.get(DeploymentStateMachine);
    await machine.apply({ kind: 'start', deploymentId: id, runnerId: 'test' }, ctx);
    await machine.apply({ kind: 'stepStarted', deploymentId: id, step: 'pull' }, ctx);
    const line = (n: number, text: string) => ({
      deploymentId: id,
      line: n,
      step: 'pull',
      stream: 'stdout' as const,
      text,
      at: new Date().toISOString(),
    });
    await t.app.get(DeploymentLogStore).append([line(1, 'first line, written live')]);
    await page.getByText('first line, written live').waitFor();
    await t.app.get(DeploymentLogStore).append([line(2, 'second line, written live')]);
    await page.getByText('second line, written live').waitFor();
    await machine.apply(
      { kind: 'stepFinished', deploymentId: id, step: 'pull', ok: true, detail: null },
      ctx,
    );
    await machine.apply(
      {
        kind: 'succeed',
        deploymentId: id,
        serviceId,
        imageRef: 'ghcr.io/acme/api:3.0.0',
        imageDigest: `sha256:${'d'.repeat(64)}`,
      },
      ctx,
    );
    await page.getByText('Succeeded', { exact: true }).first().waitFor();
    await screenshot(page, 'deployment-live-log');
    await context.close();
  }, 60_000);
});
