import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { call, createToken, bearer, memberWithRole } from './support/identity.js';
import { sdParams, startSyslog, type ReceivedSyslog, type TestSyslog } from './support/rsyslog.js';
import { startDrainTestApp, type DrainTestApp } from './support/drains.js';
import { waitForDeployment } from './support/sshd.js';
import type { TestApp } from './support/test-app.js';

interface DrainView {
  drainId: string;
  headerNames: string[];
  fromPosition: number;
  delivery: {
    status: string;
    position: number;
    behind: number;
    delivered: number;
    failures: number;
    lastError: string | null;
  };
}

const SD = 'slipway@32473';
const params = (m: ReceivedSyslog) => sdParams(m.structuredData)[SD] ?? {};
const auditOf = (messages: ReceivedSyslog[]) => messages.filter((m) => m.msgId === 'audit');

/**
 * Drains to Debian's rsyslogd over TLS (RFC 5425): the audit trail and deployment output of a
 * real deployment (over a real sshd) arrive as RFC 5424 messages, every entry once and in order;
 * a receiver whose certificate the drain does not trust gets nothing and the drain says why.
 */
describe('syslog drains (RFC 5424 over TLS, received by rsyslog)', () => {
  let app: DrainTestApp;
  let syslog: TestSyslog;
  let other: TestSyslog;
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let serviceId: string;

  const drains = async () =>
    data<{ drains: DrainView[] }>(await call(t.url, 'GET', 'drains', owner)).drains;
  const drain = async (id: string) => (await drains()).find((d) => d.drainId === id)!;
  const configure = (input: Record<string, unknown>, auth = owner) =>
    call(t.url, 'POST', 'configureDrain', auth, input);
  const auditPositions = async (after: number) => {
    const page = data<{ entries: { position: number }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { limit: 500 }),
    );
    return page.entries
      .map((e) => e.position)
      .filter((p) => p > after)
      .sort((a, b) => a - b);
  };

  beforeAll(async () => {
    syslog = await startSyslog();
    other = await startSyslog();
    app = await startDrainTestApp();
    ({ t, owner, ownerCookie, serviceId } = app);
  });
  afterAll(async () => {
    await app?.close();
    await syslog?.stop();
    await other?.stop();
  });

  it('ships every audit entry once, in order, and a deployment’s output, to rsyslog', async () => {
    const configured = data<{ drainId: string; changed: boolean }>(
      await configure({
        drainId: 'siem',
        displayName: 'SIEM',
        kind: 'syslog',
        endpoint: `tls://localhost:${syslog.port}`,
        caCertificate: syslog.caPem,
        sources: ['audit', 'deployment-logs'],
      }),
    );
    expect(configured).toEqual({ drainId: 'siem', changed: true });
    const { fromPosition } = await drain('siem');

    // Something refused, something done, and a deployment with output.
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    expect(
      (await call(t.url, 'POST', 'triggerDeploy', viewer, { serviceId, imageTag: 'v1' })).status,
    ).toBe(403);
    const { deploymentId } = data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: 'v2' }),
    );
    await waitForDeployment(t, owner, deploymentId, ['succeeded'], 30_000, 25);

    const succeeded = (m: ReceivedSyslog[]) =>
      auditOf(m).some((x) => params(x).action === 'DeploymentSucceeded');
    const messages = await syslog.waitFor(succeeded, 'the deployment’s success on the trail');

    // Every entry of the trail after the drain began, once and in order.
    const positions = auditOf(messages).map((m) => Number(params(m).position));
    const expected = (await auditPositions(fromPosition)).filter(
      (p) => p <= Math.max(...positions),
    );
    expect(positions).toEqual(expected);
    expect(positions[0]).toBe(fromPosition + 1);

    // The drain's own configuration is its first record: who opened the tap is on it.
    const first = auditOf(messages)[0];
    expect(params(first).action).toBe('DrainConfigured');
    expect(first).toMatchObject({ appName: 'slipway', version: 1, pri: 13 * 8 + 5 });
    expect(JSON.parse(first.msg)).toMatchObject({
      action: 'DrainConfigured',
      outcome: 'succeeded',
    });

    // A refusal: "log audit" at warning.
    const denied = auditOf(messages).find((m) => params(m).outcome === 'denied')!;
    expect(denied.pri).toBe(13 * 8 + 4);
    expect(JSON.parse(denied.msg)).toMatchObject({ resource: 'procedure:triggerDeploy' });

    // The deployment's output, user-level at info, numbered from 1 without gaps.
    const output = await syslog.waitFor(
      (m) =>
        m.some((x) => x.msgId === 'deployment-output' && params(x).deploymentId === deploymentId),
      'deployment output',
    );
    const lines = output.filter(
      (m) => m.msgId === 'deployment-output' && params(m).deploymentId === deploymentId,
    );
    const logPage = data<{ lines: { line: number; text: string }[] }>(
      await call(t.url, 'GET', 'deploymentLogs', owner, { deploymentId, limit: 500 }),
    );
    await syslog.waitFor(
      (m) =>
        m.filter((x) => x.msgId === 'deployment-output' && params(x).deploymentId === deploymentId)
          .length >= logPage.lines.length,
      'every output line',
    );
    expect(lines[0].pri).toBe(1 * 8 + 6);
    const shipped = (await syslog.messages())
      .filter((m) => m.msgId === 'deployment-output' && params(m).deploymentId === deploymentId)
      .map((m) => ({ line: Number(params(m).line), text: m.msg }));
    expect(shipped.map((s) => s.line)).toEqual(logPage.lines.map((l) => l.line));
    expect(params(lines[0]).serviceId).toBe(serviceId);

    const view = await drain('siem');
    expect(view.delivery).toMatchObject({ status: 'delivering', failures: 0, lastError: null });
    expect(view.delivery.delivered).toBeGreaterThanOrEqual(positions.length + shipped.length);
  });

  it('sends nothing to a receiver whose certificate it does not trust, says why, then catches up', async () => {
    expect(
      (
        await configure({
          drainId: 'untrusted',
          displayName: 'Untrusted',
          kind: 'syslog',
          endpoint: `tls://localhost:${other.port}`,
          sources: ['audit'],
        })
      ).status,
    ).toBe(200);
    const { fromPosition } = await drain('untrusted');
    await createToken(t.url, ownerCookie, ['deploy:read']);
    let view: DrainView | undefined;
    for (let i = 0; i < 200 && !(view?.delivery.failures ?? 0); i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await drain('untrusted');
    }
    expect(view!.delivery.status).toBe('failing');
    expect(view!.delivery.lastError).toMatch(/certificate/i);
    expect(view!.delivery.behind).toBeGreaterThan(0);
    expect(await other.messages()).toEqual([]);

    // Trusting the receiver's CA: the drain keeps its place, so nothing recorded meanwhile is lost.
    expect(
      (
        await configure({
          drainId: 'untrusted',
          displayName: 'Untrusted',
          kind: 'syslog',
          endpoint: `tls://localhost:${other.port}`,
          caCertificate: other.caPem,
          sources: ['audit'],
        })
      ).status,
    ).toBe(200);
    expect((await drain('untrusted')).fromPosition).toBe(fromPosition);
    const received = await other.waitFor(
      (m) => auditOf(m).some((x) => params(x).action === 'DrainConfigured' && x !== auditOf(m)[0]),
      'the second configuration',
    );
    const positions = auditOf(received).map((m) => Number(params(m).position));
    expect(positions[0]).toBe(fromPosition + 1);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(positions.length);
    expect(auditOf(received).some((m) => params(m).action === 'TokenMinted')).toBe(true);
  });

  it('refuses what a drain may not be, and those who may not set one', async () => {
    const base = {
      drainId: 'x',
      displayName: 'X',
      kind: 'syslog',
      endpoint: `tls://localhost:${syslog.port}`,
      sources: ['audit'],
    };
    const refusal = async (input: Record<string, unknown>, auth = owner) => {
      const res = await configure({ ...base, ...input }, auth);
      return { status: res.status, body: JSON.stringify(res.body.error ?? null) };
    };
    // Syslog goes over TLS, to a port; OTLP over https (http only on loopback).
    expect(await refusal({ endpoint: `udp://localhost:514` })).toMatchObject({ status: 400 });
    expect(await refusal({ endpoint: `tls://localhost` })).toMatchObject({ status: 400 });
    expect(
      await refusal({ kind: 'otlp', endpoint: 'http://collector.example/v1/logs' }),
    ).toMatchObject({ status: 400 });
    // The address policy: a private address is refused where loopback alone is allowed.
    const privateAddress = await refusal({ endpoint: 'tls://10.1.2.3:6514' });
    expect(privateAddress.status).toBe(400);
    expect(privateAddress.body).toMatch(/endpoint refused/);
    expect(await refusal({ headers: [{ name: 'x-key', value: 'k' }] })).toMatchObject({
      status: 400,
    });
    expect(await refusal({ caCertificate: 'not a certificate' })).toMatchObject({ status: 400 });
    expect(await refusal({ sources: [] })).toMatchObject({ status: 400 });
    expect(await refusal({ drainId: 'Not An Id' })).toMatchObject({ status: 400 });
    expect(
      await refusal({
        kind: 'otlp',
        endpoint: 'http://127.0.0.1:4318/v1/logs',
        headers: [{ name: 'Content-Type', value: 'text/plain' }],
      }),
    ).toMatchObject({ status: 400 });

    // Operators cannot open a tap on the trail; nor can an admin's token without audit:read.
    const operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
    expect((await refusal({}, operator)).status).toBe(403);
    const narrow = await createToken(t.url, ownerCookie, ['notifications:manage']);
    expect((await refusal({}, bearer(narrow.token))).status).toBe(403);
    expect((await call(t.url, 'GET', 'drains', operator)).status).toBe(403);
    expect((await drains()).map((d) => d.drainId)).not.toContain('x');
  });

  it('removes a drain; it ships nothing more', async () => {
    expect(data(await call(t.url, 'POST', 'removeDrain', owner, { drainId: 'untrusted' }))).toEqual(
      {
        drainId: 'untrusted',
        removed: true,
      },
    );
    expect((await call(t.url, 'POST', 'removeDrain', owner, { drainId: 'untrusted' })).status).toBe(
      404,
    );
    expect((await drains()).map((d) => d.drainId)).toEqual(['siem']);
  });
});
