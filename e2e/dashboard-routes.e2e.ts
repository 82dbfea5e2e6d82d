import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  EdgeCertificateFailed,
  EdgeCertificateObserved,
} from '../src/events/edge-certificates.events.js';
import { serviceStream } from '../src/events/deployments.events.js';
import { serverEdgeStream } from '../src/events/edge.events.js';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { systemContext } from '../src/kernel/request-context.js';
import { EventWriter } from '../src/storage/event-writer.js';
import { ensureWebBundle, launchBrowser, logInThroughPage, screenshot } from './support/browser.js';
import { data, FINGERPRINT, PRIVATE_KEY } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const OWNER = 'owner@example.com';
const COMPOSE =
  'services:\n  web:\n    image: ghcr.io/acme/shop:1.0.0\n  api:\n    image: ghcr.io/acme/shop-api:1.0.0\n';

interface Route {
  domain: string;
  pathPrefix: string | null;
  service: string;
  port: number;
  tls?: string;
  hsts?: boolean;
}

/**
 * A service's routes in a real browser: added, changed and removed on the change form (sent
 * only when edited), refused in words beside the row, and shown on the service card with the
 * state of each HTTPS domain's certificate as the edge proxy reported it (events appended here:
 * no server, no proxy, no Docker engine).
 */
describe('the dashboard: a service’s routes and certificates', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Record<string, string>;
  let serverId: string;
  let serviceId: string;

  beforeAll(async () => {
    ensureWebBundle();
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, OWNER, 'Olivia Owner')).cookie);
    ({ serverId } = data<{ serverId: string }>(
      await call(t.url, 'POST', 'registerServer', owner, {
        name: 'web-1',
        host: '10.0.0.2',
        sshUser: 'deploy',
        privateKey: PRIVATE_KEY,
        hostKeyFingerprint: FINGERPRINT,
      }),
    ));
    ({ serviceId } = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'shop',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/shop',
        compose: COMPOSE,
      }),
    ));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const routes = async () =>
    data<{ routes: Route[] }>(await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }))
      .routes;

  const servicesPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${t.url}/login?returnTo=%2Fservices`);
    await logInThroughPage(page, OWNER);
    await page.waitForURL(`${t.url}/services`);
    return { context, page, card: page.getByRole('region', { name: 'shop production' }) };
  };

  const openChangeForm = async (page: Page) => {
    await page
      .getByRole('region', { name: 'shop production' })
      .getByRole('button', { name: 'Change…' })
      .click();
    return page.getByRole('form', { name: 'Change shop' });
  };

  it('adds two routes, one over HTTPS with HSTS and one over plain HTTP', async () => {
    const { context, page, card } = await servicesPage();
    await card.getByText('nothing deployed yet').waitFor();
    await expect(card.getByText('Domains').count()).resolves.toBe(0);
    const form = await openChangeForm(page);
    await form
      .getByText('None: the service is reached as its compose file publishes it.')
      .waitFor();

    await form.getByRole('button', { name: 'Add a route' }).click();
    await form.getByLabel('Domain of route 1').fill('shop.example.com');
    await form.getByLabel('Compose service of route 1').fill('web');
    await form.getByLabel('Container port of route 1').fill('8080');
    await expect(form.getByLabel('HTTPS for route 1').isChecked()).resolves.toBe(true);
    await form.getByLabel('HSTS for route 1').check();

    await form.getByRole('button', { name: 'Add a route' }).click();
    await form.getByLabel('Domain of route 2').fill('api.example.com');
    await form.getByLabel('Path prefix of route 2').fill('/v1');
    await form.getByLabel('Compose service of route 2').fill('api');
    await form.getByLabel('Container port of route 2').fill('3000');
    await form.getByLabel('HSTS for route 2').check();
    await form.getByLabel('HTTPS for route 2').uncheck();
    // Without HTTPS there is no HSTS: unchecked with it, and not to be checked again.
    await expect(form.getByLabel('HSTS for route 2').isChecked()).resolves.toBe(false);
    await expect(form.getByLabel('HSTS for route 2').isDisabled()).resolves.toBe(true);
    await screenshot(page, 'service-routes-form');

    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service shop updated; the next deployment uses it.').waitFor();
    expect(await routes()).toEqual([
      {
        domain: 'api.example.com',
        pathPrefix: '/v1',
        service: 'api',
        port: 3000,
        tls: 'off',
        hsts: false,
      },
      {
        domain: 'shop.example.com',
        pathPrefix: null,
        service: 'web',
        port: 8080,
        tls: 'auto',
        hsts: true,
      },
    ]);

    await card.getByRole('link', { name: 'https://shop.example.com' }).waitFor();
    await card.getByRole('link', { name: 'http://api.example.com/v1' }).waitFor();
    const domains = await card.locator('.domain-list').innerText();
    expect(domains).toContain('https://shop.example.com → web:8080 (HSTS)');
    expect(domains).toContain('http://api.example.com/v1 → api:3000');
    expect(domains).toContain('Obtaining a certificate…');
    // Only the HTTPS domain has a certificate to obtain.
    await expect(card.getByText('Obtaining a certificate…').count()).resolves.toBe(1);
    await context.close();
  }, 60_000);

  it('leaves the routes alone when a change does not touch them', async () => {
    const before = await routes();
    const { context, page } = await servicesPage();
    const form = await openChangeForm(page);
    await form.getByLabel('Image repository').fill('ghcr.io/acme/shop-next');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service shop updated; the next deployment uses it.').waitFor();
    const events = await t.app
      .get<EventStore>(EVENT_STORE)
      .readStream(serviceStream('production', 'shop'));
    const last = events[events.length - 1];
    expect(last.type).toBe('ServiceUpdated');
    const { changes } = last.data as { changes: Record<string, unknown> };
    expect(changes.imageRepository).toBe('ghcr.io/acme/shop-next');
    expect(changes).not.toHaveProperty('routes');
    expect(await routes()).toEqual(before);
    await context.close();
  }, 60_000);

  it('names a bad domain beside its row, then removes a route', async () => {
    const { context, page, card } = await servicesPage();
    const form = await openChangeForm(page);
    // The rows come back in the recorded order: api.example.com first.
    await expect(form.getByLabel('Domain of route 1').inputValue()).resolves.toBe(
      'api.example.com',
    );
    await expect(form.getByLabel('HTTPS for route 1').isChecked()).resolves.toBe(false);
    await expect(form.getByLabel('HSTS for route 2').isChecked()).resolves.toBe(true);

    await form.getByLabel('Domain of route 2').fill('Shop_Example.com');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/^Route 2: domain is a lower-case DNS name/).waitFor();
    await expect(form.getByRole('alert').innerText()).resolves.toContain(
      'Please correct the fields marked below.',
    );
    await expect(form.getByLabel('Domain of route 2').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
    await screenshot(page, 'service-routes-field-error');
    await form.getByLabel('Domain of route 2').fill('shop.example.com');

    await form.getByRole('button', { name: 'Remove route 1' }).click();
    await expect(form.getByLabel('Domain of route 1').inputValue()).resolves.toBe(
      'shop.example.com',
    );
    await expect(form.getByLabel('Domain of route 2').count()).resolves.toBe(0);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Service shop updated; the next deployment uses it.').waitFor();
    expect(await routes()).toEqual([
      {
        domain: 'shop.example.com',
        pathPrefix: null,
        service: 'web',
        port: 8080,
        tls: 'auto',
        hsts: true,
      },
    ]);
    await card.getByRole('link', { name: 'https://shop.example.com' }).waitFor();
    await expect(card.getByText('api.example.com').count()).resolves.toBe(0);
    await context.close();
  }, 60_000);

  it('shows the certificate the proxy holds, then its failure to renew', async () => {
    const writer = t.app.get(EventWriter);
    const notAfter = new Date(Date.now() + 60 * 86_400_000).toISOString();
    await writer.append(
      serverEdgeStream(serverId),
      [
        EdgeCertificateObserved({
          serverId,
          domain: 'shop.example.com',
          issuer: 'C=US, O=Let’s Encrypt, CN=R11',
          notBefore: new Date(Date.now() - 30 * 86_400_000).toISOString(),
          notAfter,
          serialNumber: '04a1b2c3',
          fingerprint: 'AB:CD',
        }),
      ],
      'any',
      systemContext('test'),
    );
    const { context, page, card } = await servicesPage();
    const certificate = card.locator('.certificate');
    await certificate.getByText('Certificate from Let’s Encrypt, expires in 60 days').waitFor();
    await expect(certificate.locator('time').getAttribute('datetime')).resolves.toBe(notAfter);
    await screenshot(page, 'service-routes-card');

    await writer.append(
      serverEdgeStream(serverId),
      [
        EdgeCertificateFailed({
          serverId,
          domain: 'shop.example.com',
          reason: 'HTTP 400 urn:ietf:params:acme:error:connection - connection refused',
          failedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
        }),
      ],
      'any',
      systemContext('test'),
    );
    await page.reload();
    const failure = card.locator('.certificate .error-text');
    await failure
      .getByText(
        'Certificate failing: HTTP 400 urn:ietf:params:acme:error:connection - connection refused',
      )
      .waitFor();
    await expect(certificate.innerText()).resolves.toMatch(
      /\(5 minutes ago\); the current one, from Let’s Encrypt, expires in 60 days$/,
    );
    await screenshot(page, 'service-routes-card-failing');
    await context.close();
  }, 60_000);
});
