import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli, cliHome } from './support/cli.js';
import { data } from './support/deployments.js';
import { bearer, call, createToken, PASSWORD } from './support/identity.js';
import {
  startOtlpReceiver,
  type ReceivedLogRecord,
  type TestOtlpReceiver,
} from './support/otlp-receiver.js';
import { startDrainTestApp, type DrainTestApp } from './support/drains.js';
import { waitForDeployment } from './support/sshd.js';
import type { TestApp } from './support/test-app.js';

interface DrainView {
  drainId: string;
  headerNames: string[];
  fromPosition: number;
  delivery: { status: string; behind: number; failures: number; lastError: string | null };
}

const SECRET = 'Bearer drain-s3cret-value';
const audit = (records: ReceivedLogRecord[]) =>
  records.filter((r) => r.scope.name === 'slipway.audit');
const positionOf = (r: ReceivedLogRecord) => Number(r.attributes['slipway.audit.position']);

/**
 * Drains over OTLP/HTTP to a receiver that decodes with the official opentelemetry-proto
 * definitions (not with the encoder Slipway uses): the audit trail and deployment output arrive
 * as log records with their attributes; the drain's header is sent and never shown; a failing
 * receiver holds back only its drain, which then delivers everything, once and in order.
 */
describe('OTLP drains (logs over HTTP)', () => {
  let app: DrainTestApp;
  let receiver: TestOtlpReceiver;
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let serviceId: string;
  let fromPosition: number;

  const drain = async () =>
    data<{ drains: DrainView[] }>(await call(t.url, 'GET', 'drains', owner)).drains.find(
      (d) => d.drainId === 'collector',
    )!;

  beforeAll(async () => {
    receiver = await startOtlpReceiver({ requireHeader: ['authorization', SECRET] });
    app = await startDrainTestApp();
    ({ t, owner, ownerCookie, serviceId } = app);
    data(
      await call(t.url, 'POST', 'configureDrain', owner, {
        drainId: 'collector',
        displayName: 'Collector',
        kind: 'otlp',
        endpoint: receiver.url,
        headers: [{ name: 'Authorization', value: SECRET }],
        sources: ['audit', 'deployment-logs'],
      }),
    );
    fromPosition = (await drain()).fromPosition;
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
  });

  it('sends audit records and deployment output with their attributes', async () => {
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: 'v1' }),
    );
    await waitForDeployment(t, owner, deploymentId, ['succeeded'], 30_000, 25);
    const records = await receiver.waitFor(
      (r) =>
        audit(r).some((x) => x.attributes['slipway.audit.action'] === 'DeploymentSucceeded') &&
        r.some((x) => x.attributes['slipway.deployment.id'] === deploymentId),
      'the deployment on the trail and its output',
    );
    const configured = audit(records)[0];
    expect(positionOf(configured)).toBe(fromPosition + 1);
    expect(configured).toMatchObject({
      resource: { 'service.name': 'slipway' },
      scope: { name: 'slipway.audit' },
      eventName: 'slipway.audit',
      severityNumber: 9,
      severityText: 'INFO',
      attributes: {
        'slipway.audit.action': 'DrainConfigured',
        'slipway.audit.outcome': 'succeeded',
        'slipway.audit.stream': 'drain-collector',
        'slipway.actor.kind': 'user',
      },
    });
    expect(JSON.parse(String(configured.body))).toMatchObject({ action: 'DrainConfigured' });
    const line = records.find((x) => x.attributes['slipway.deployment.id'] === deploymentId)!;
    expect(line).toMatchObject({
      scope: { name: 'slipway.deployment-output' },
      attributes: { 'slipway.service.id': serviceId, 'slipway.deployment.line': 1 },
    });
    expect(['stdout', 'stderr']).toContain(line.attributes['log.iostream']);
    expect(typeof line.body).toBe('string');
    // Every request carried the drain's header (the receiver refuses any other).
    expect(receiver.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('never shows the header value, only its name', async () => {
    const view = await drain();
    expect(view.headerNames).toEqual(['authorization']);
    const answers = [
      await call(t.url, 'GET', 'drains', owner),
      await call(t.url, 'GET', 'auditTrail', owner, { limit: 500 }),
    ];
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain('s3cret');
  });

  it('a failing receiver holds back only its drain; commands go on; nothing is lost', async () => {
    receiver.failNext(4, 503);
    // Commands are answered while the drain cannot deliver.
    for (let i = 0; i < 12; i++) await createToken(t.url, ownerCookie, ['deploy:read']);
    let view = await drain();
    for (let i = 0; i < 200 && view.delivery.failures === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      view = await drain();
    }
    expect(view.delivery.status).toBe('failing');
    expect(view.delivery.lastError).toBe('the OTLP receiver answered 503');
    expect(view.delivery.behind).toBeGreaterThan(0);

    const head = data<{ entries: { position: number }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { limit: 1 }),
    ).entries[0].position;
    const records = await receiver.waitFor(
      (r) => audit(r).some((x) => positionOf(x) >= head),
      'the drain to catch up',
    );
    const positions = audit(records).map(positionOf);
    const all = Array.from({ length: positions.length }, (_, i) => fromPosition + 1 + i);
    expect(positions).toEqual(all);
    expect(
      audit(records).filter((r) => r.attributes['slipway.audit.action'] === 'TokenMinted'),
    ).toHaveLength(12);
    expect(receiver.requests.filter((r) => r.status === 503)).toHaveLength(4);
    const after = await drain();
    expect(after.delivery).toMatchObject({ status: 'delivering', failures: 0 });
  });

  it('is set, listed and removed with the CLI, the header value read from standard input', async () => {
    const home = cliHome();
    try {
      const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--password-stdin'];
      expect((await cli(home, login, {}, `${PASSWORD}\n`)).code).toBe(0);
      const set = await cli(
        home,
        [
          'drains',
          'set',
          'from-cli',
          '--kind',
          'otlp',
          '--endpoint',
          receiver.url,
          '--header-from-stdin',
          'authorization',
          '--sources',
          'audit,deployment-logs',
        ],
        {},
        `${SECRET}\n`,
      );
      expect([set.code, set.stdout]).toEqual([0, 'Drain from-cli saved\n']);
      const list = await cli(home, ['drains', 'list']);
      const row = list.stdout.split('\n').find((l) => l.includes('from-cli'))!;
      expect(row).toMatch(/otlp.*http:\/\/127\.0\.0\.1:\d+\/v1\/logs.*audit,deployment-logs/);
      expect(list.stdout).not.toContain('s3cret');
      const json = await cli(home, ['drains', 'list', '--json']);
      const listed = (json.json.data as { drains: DrainView[] }).drains;
      expect(listed.find((d) => d.drainId === 'from-cli')!.headerNames).toEqual(['authorization']);
      const bad = await cli(home, [
        'drains',
        'set',
        'x',
        '--kind',
        'syslog',
        '--endpoint',
        'udp://h:514',
      ]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/BAD_REQUEST/);
      const removed = await cli(home, ['drains', 'remove', 'from-cli', '--yes']);
      expect([removed.code, removed.stdout]).toEqual([0, 'Drain from-cli removed\n']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
  it('keeps its headers only for the endpoint they were given for', async () => {
    const other = await startOtlpReceiver();
    try {
      const settings = {
        drainId: 'collector',
        displayName: 'Collector',
        kind: 'otlp',
        sources: ['audit', 'deployment-logs'],
      };
      // An admin who never knew the key points the drain elsewhere, leaving the headers out.
      const moved = await call(t.url, 'POST', 'configureDrain', owner, {
        ...settings,
        endpoint: other.url,
      });
      expect(moved.status).toBe(409);
      expect(moved.body).toMatchObject({
        error: { code: 'CONFLICT', message: expect.stringMatching(/give the headers again/) },
      });
      expect((await drain()).headerNames).toEqual(['authorization']);
      // Left out on the same endpoint, they stay; given again, they may go elsewhere.
      data(
        await call(t.url, 'POST', 'configureDrain', owner, { ...settings, endpoint: receiver.url }),
      );
      expect((await drain()).headerNames).toEqual(['authorization']);
      const withKey = { ...settings, headers: [{ name: 'Authorization', value: SECRET }] };
      data(await call(t.url, 'POST', 'configureDrain', owner, { ...withKey, endpoint: other.url }));
      data(
        await call(t.url, 'POST', 'configureDrain', owner, { ...withKey, endpoint: receiver.url }),
      );
      expect((await drain()).headerNames).toEqual(['authorization']);
    } finally {
      await other.stop();
    }
  });
  it('is changed, disabled or removed only by those who may read the trail', async () => {
    const narrow = await createToken(t.url, ownerCookie, ['notifications:manage']);
    for (const [method, input] of [
      [
        'configureDrain',
        {
          drainId: 'collector',
          displayName: 'C',
          kind: 'otlp',
          endpoint: receiver.url,
          sources: ['audit'],
          enabled: false,
        },
      ],
      ['removeDrain', { drainId: 'collector' }],
    ] as const) {
      const res = await call(t.url, 'POST', method, bearer(narrow.token), input);
      expect([res.status, res.body.error.data.missingScopes]).toEqual([403, ['audit:read']]);
    }
    expect((await drain()).delivery.status).not.toBe('disabled');
  });
});
