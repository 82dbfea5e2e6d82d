import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import { cli, cliHome } from './support/cli.js';
import { call, cookieAuth, memberWithRole, PASSWORD, signUp } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  deployAndWait,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { MINUTE, TestClock } from './support/test-clock.js';
import { MetricsCollector } from '../src/runner/metrics/metrics-collector.js';

const PROJECT = 'loop-production';
const HEALTH = '{{.State.Status}} {{.State.Health.Status}}';

interface Alert {
  alertId: string;
  kind: string;
  severity: string;
  status: string;
  container: string | null;
  value: number | null;
  detail: string;
}

type Body = Record<string, unknown> & { subject?: string; data?: Record<string, unknown> };

/**
 * Metrics read over a real sshd from a real Docker engine, and the alerts they raise: the test
 * clock moves a collection interval between passes, the engine runs a container that is made to
 * restart in a loop (and to fail its health check), and a webhook hears each incident once.
 */
describe('metrics and alerts from a real Docker engine', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let serverId: string;
  let serviceId: string;
  let image: string;
  const clock = new TestClock();
  const bodies: Body[] = [];
  let hook: Server;

  const collect = async () => {
    clock.advance(MINUTE);
    await t.app.get(MetricsCollector).pass();
  };
  const alerts = async (input: Record<string, unknown>) =>
    data<{ alerts: Alert[] }>(
      await call(t.url, 'GET', 'alerts', owner, { status: 'all', ...input }),
    ).alerts;
  const until = async <T>(what: string, read: () => Promise<T> | T, ok: (v: T) => boolean) => {
    for (let i = 0; i < 600; i++) {
      const value = await read();
      if (ok(value)) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const container = () => `${PROJECT}-web-1`;
  const inspect = (format: string) =>
    engine.docker(['inspect', '--format', format, container()]).trim();
  const restarts = () => Number(inspect('{{.RestartCount}}'));
  /** Writes the mode the container reads at each start (crash, sick, ok) into its volume. */
  const setMode = (mode: string) =>
    engine.docker([
      'run',
      '--rm',
      '-v',
      `${PROJECT}_flags:/flags`,
      '--entrypoint',
      'sh',
      image,
      '-c',
      `echo ${mode} > /flags/mode`,
    ]);
  /** Ends the container's main process (its restart policy starts it again, reading its mode). */
  const restart = () => {
    try {
      engine.docker(['exec', container(), 'kill', '1']);
    } catch {
      // The exec may end with the container it stopped.
    }
  };
  const heard = (subject: string, kind: string) =>
    bodies.filter((b) => b.subject === subject && b.data?.kind === kind);

  beforeAll(async () => {
    engine = dockerEngine();
    image = `${engine.registry}/acme/api:1.0.0`;
    sshd = await startSshd({ engine });
    hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const defaults = (await import('../src/config/app-config.js')).loadConfig({});
    t = await startTestApp({
      notes: false,
      clock,
      config: {
        serverAddressPolicy: ALLOW_LOOPBACK,
        metrics: { intervalSeconds: 60, rawHours: 48, hourlyDays: 90 },
        notifications: {
          ...defaults.notifications,
          tokenScanMinutes: 0,
          addressPolicy: ALLOW_LOOPBACK,
          retryBaseMs: 50,
        },
      },
    });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    serverId = await registerLoopbackServer(t.url, owner, sshd);
    // At each start the container reads its mode from a volume: crash exits at once (a
    // restart loop under `restart: always`), sick serves a directory without the health file.
    const start = [
      'm=$$(cat /flags/mode 2>/dev/null)',
      'if [ "$$m" = crash ]; then exit 1; fi',
      'd=/www',
      'if [ "$$m" = sick ]; then d=/flags; fi',
      "trap 'exit 0' TERM",
      'httpd -f -p 80 -h $$d & wait $$!',
    ].join('; ');
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'loop',
        environment: 'production',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: [
          'services:',
          '  web:',
          `    image: ${image}`,
          '    restart: always',
          `    command: ${JSON.stringify(['sh', '-c', start])}`,
          '    volumes: ["flags:/flags"]',
          'volumes:',
          '  flags: {}',
          '',
        ].join('\n'),
      }),
    ).serviceId;
    const done = await deployAndWait<{ status: string }>(t, owner, serviceId, image);
    expect(done.status).toBe('succeeded');
    const { port } = hook.address() as AddressInfo;
    data(
      await call(t.url, 'POST', 'createNotificationChannel', owner, {
        name: 'ops',
        kind: 'webhook',
        target: `http://127.0.0.1:${port}/hook`,
        subscriptions: ['alert.raised', 'alert.resolved'],
      }),
    );
  }, 5 * 60_000);

  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    engine?.removeProject(PROJECT);
    engine?.docker(['volume', 'rm', '-f', `${PROJECT}_flags`]);
    hook?.close();
  });

  it("reads the server's and the container's metrics and keeps them as history", async () => {
    await collect();
    await collect();
    const server = data<{ resolution: string; points: { values: Record<string, number> }[] }>(
      await call(t.url, 'GET', 'serverMetrics', owner, { serverId, hours: 1 }),
    );
    expect(server.resolution).toBe('raw');
    expect(server.points).toHaveLength(2);
    const latest = server.points[1]!.values;
    expect(latest.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(latest.cpuPercent).toBeLessThanOrEqual(100);
    expect(latest.memoryPercent).toBeGreaterThan(0);
    expect(latest.memoryBytes).toBeGreaterThan(0);
    expect(latest.diskPercent).toBeGreaterThan(0);
    // The pulled image at least.
    expect(latest.dockerDiskBytes).toBeGreaterThan(0);

    const service = data<{
      containers: { container: string; state: string; health: string; points: unknown[] }[];
    }>(await call(t.url, 'GET', 'serviceMetrics', owner, { serviceId, hours: 1 }));
    expect(service.containers).toEqual([
      expect.objectContaining({ container: container(), state: 'running', health: 'healthy' }),
    ]);
    const [first] = service.containers[0]!.points as { values: Record<string, number> }[];
    expect(first!.values.memoryBytes).toBeGreaterThan(0);
    expect(first!.values.restarts).toBe(0);

    // The same through /api/v1.
    const rest = await fetch(`${t.url}/api/v1/servers/${serverId}/metrics?hours=1`, {
      headers: owner,
    });
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { points: unknown[] }).points).toHaveLength(2);
    const containers = await fetch(`${t.url}/api/v1/services/${serviceId}/metrics`, {
      headers: owner,
    });
    expect(((await containers.json()) as { containers: unknown[] }).containers).toHaveLength(1);
    for (const bad of ['hours=0', 'hours=721', 'hours=six']) {
      const refused = await fetch(`${t.url}/api/v1/servers/${serverId}/metrics?${bad}`, {
        headers: owner,
      });
      expect(refused.status).toBe(400);
    }
    expect((await fetch(`${t.url}/api/v1/servers/${serverId}/metrics`)).status).toBe(401);

    // Longer windows are read as hourly means.
    const week = data<{ resolution: string; points: { values: Record<string, number> }[] }>(
      await call(t.url, 'GET', 'serverMetrics', owner, { serverId, hours: 168 }),
    );
    expect(week.resolution).toBe('hour');
    expect(week.points.length).toBeGreaterThanOrEqual(1);
  });

  it('raises one alert for a container restarting in a loop, and notifies its recovery once', async () => {
    await collect();
    const before = restarts();
    setMode('crash');
    restart();
    await until('three restarts', restarts, (n) => n >= before + 3);
    await collect();
    await until('a fourth restart', restarts, (n) => n >= before + 4);
    await collect();
    const raised = await until(
      'the restart loop alert',
      () => alerts({ serviceId }),
      (list) => list.some((a) => a.kind === 'restart-loop'),
    );
    expect(raised.find((a) => a.kind === 'restart-loop')).toMatchObject({
      severity: 'critical',
      status: 'open',
      container: container(),
    });
    await collect(); // still looping: nothing more is raised

    // The next start reads `ok`: the loop ends by itself.
    setMode('ok');
    await until(
      'the container back up',
      () => inspect('{{.State.Status}}'),
      (s) => s === 'running',
    );
    const settled = restarts();
    clock.advance(10 * MINUTE);
    await collect();
    await collect();
    expect(restarts()).toBe(settled);
    await until(
      'the recovery',
      () => alerts({ serviceId }),
      (list) => list.some((a) => a.kind === 'restart-loop' && a.status === 'resolved'),
    );
    const rest = await fetch(`${t.url}/api/v1/services/${serviceId}/alerts?status=all`, {
      headers: owner,
    });
    expect(((await rest.json()) as { alerts: Alert[] }).alerts).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'restart-loop' })]),
    );
    await collect();
    await until(
      'both notifications',
      () => bodies,
      () => heard('alert.resolved', 'restart-loop').length > 0,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(heard('alert.raised', 'restart-loop')).toHaveLength(1);
    expect(heard('alert.resolved', 'restart-loop')).toHaveLength(1);
    expect(heard('alert.raised', 'restart-loop')[0]!.data).toMatchObject({
      serviceId,
      severity: 'critical',
    });

    // On the audit trail, as the system.
    const trail = data<{ entries: { action: string }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { action: 'AlertRaised' }),
    ).entries;
    expect(trail.length).toBeGreaterThanOrEqual(1);
  });
  it('raises a threshold alert once, escalates it once, and resolves it when the rule no longer holds', async () => {
    const rule = async (input: Record<string, unknown>) =>
      data<{ ruleId: string; changed: boolean }>(
        await call(t.url, 'POST', 'setAlertRule', owner, {
          serverId,
          name: 'memory',
          metric: 'memoryPercent',
          forSeconds: 0,
          ...input,
        }),
      );
    // Any memory in use holds at 0.
    const { ruleId } = await rule({ warning: 0 });
    await collect();
    const raised = await until(
      'the warning',
      () => alerts({ serverId }),
      (list) => list.some((a) => a.kind === 'threshold'),
    );
    expect(raised.find((a) => a.kind === 'threshold')).toMatchObject({
      severity: 'warning',
      status: 'open',
    });
    expect((await rule({ ruleId, warning: 0 })).changed).toBe(false);
    await rule({ ruleId, warning: 0, critical: 0 });
    await collect();
    await until(
      'the escalation',
      () => alerts({ serverId }),
      (list) => list.some((a) => a.kind === 'threshold' && a.severity === 'critical'),
    );
    await collect(); // critical still: nothing more
    // Nothing uses 100 % of memory here.
    await rule({ ruleId, warning: 100, critical: 100 });
    await collect();
    const resolved = await until(
      'the recovery',
      () => alerts({ serverId }),
      (list) => list.some((a) => a.kind === 'threshold' && a.status === 'resolved'),
    );
    expect(resolved.filter((a) => a.kind === 'threshold')).toHaveLength(1);

    // Held again, then the rule removed: its open alert is resolved at the next check.
    await rule({ ruleId, warning: 0 });
    await collect();
    await until(
      'a second incident',
      () => alerts({ serverId }),
      (list) => list.filter((a) => a.kind === 'threshold').length === 2,
    );
    expect((await call(t.url, 'POST', 'removeAlertRule', owner, { ruleId })).status).toBe(200);
    await collect();
    await until(
      "the removed rule's alert resolved",
      () => alerts({ serverId }),
      (list) => list.filter((a) => a.kind === 'threshold' && a.status === 'open').length === 0,
    );
    await until(
      'the notifications',
      () => bodies,
      () => heard('alert.resolved', 'threshold').length === 2,
    );
    expect(heard('alert.raised', 'threshold').map((b) => b.data?.severity)).toEqual([
      'warning',
      'critical',
      'warning',
    ]);
  });

  it('raises an alert for a container its health check calls unhealthy, and resolves it', async () => {
    setMode('sick');
    restart();
    // A stopped container reads as unhealthy too: wait for the new start's own verdict.
    await until(
      'unhealthy',
      () => inspect(HEALTH),
      (h) => h === 'running unhealthy',
    );
    await collect();
    await until(
      'the unhealthy alert',
      () => alerts({ serviceId }),
      (list) => list.some((a) => a.kind === 'unhealthy' && a.status === 'open'),
    );
    setMode('ok');
    restart();
    await until(
      'healthy',
      () => inspect('{{.State.Health.Status}}'),
      (h) => h === 'healthy',
    );
    await collect();
    await until(
      'its recovery',
      () => alerts({ serviceId }),
      (list) => list.some((a) => a.kind === 'unhealthy' && a.status === 'resolved'),
    );
  });

  it('refuses rules that cannot hold, and callers who may not set them', async () => {
    const set = async (input: Record<string, unknown>, auth = owner) =>
      (
        await call(t.url, 'POST', 'setAlertRule', auth, {
          name: 'x',
          metric: 'cpuPercent',
          warning: 50,
          ...input,
        })
      ).status;
    expect(await set({ serverId })).toBe(200);
    expect(await set({})).toBe(400);
    expect(await set({ serverId, serviceId })).toBe(400);
    expect(await set({ serverId, warning: 101 })).toBe(400);
    expect(await set({ serverId, warning: 80, critical: 70 })).toBe(400);
    expect(await set({ serverId, warning: undefined })).toBe(400);
    expect(await set({ serviceId, metric: 'diskPercent' })).toBe(400);
    expect(await set({ serverId, metric: 'load' })).toBe(400);
    expect(await set({ serverId, forSeconds: 3601 })).toBe(400);
    expect(await set({ serverId: '00000000-0000-4000-8000-000000000000' })).toBe(404);
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    expect(await set({ serverId }, viewer)).toBe(403);
    expect((await call(t.url, 'GET', 'serverMetrics', viewer, { serverId })).status).toBe(200);
    expect((await call(t.url, 'GET', 'alerts', viewer, {})).status).toBe(400);
    expect(
      (await call(t.url, 'GET', 'serverMetrics', viewer, { serverId, hours: 721 })).status,
    ).toBe(400);
  });
  it('is read and set with the CLI', async () => {
    const home = cliHome();
    try {
      const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--password-stdin'];
      expect((await cli(home, login, {}, `${PASSWORD}\n`)).code).toBe(0);
      const server = await cli(home, ['usage', 'server', serverId, '--hours', '1']);
      expect(server.code).toBe(0);
      expect(server.stdout).toMatch(/cpuPercent\s+│ [\d.]+%\s+│ [\d.]+%\s+│ [\d.]+%/);
      expect(server.stdout).toMatch(/dockerDiskBytes │ [\d.]+ [KMG]iB/);
      const service = await cli(home, ['usage', 'service', 'loop@production']);
      expect(service.stdout).toMatch(/loop-production-web-1\s+│ running healthy\s+│ restarts/);
      const set = await cli(home, [
        'alerts',
        'set',
        'busy',
        '--service',
        'loop@production',
        '--metric',
        'cpuPercent',
        '--warning',
        '80',
        '--for',
        '120',
      ]);
      expect(set.code).toBe(0);
      const ruleId = /: ([0-9a-f-]{36})$/.exec(set.stdout.trim())![1]!;
      const rules = await cli(home, ['alerts', 'rules', '--service', 'loop@production']);
      expect(rules.stdout).toMatch(
        new RegExp(`${ruleId}\\s+│ busy\\s+│ cpuPercent\\s+│ 80\\s+│\\s+│ 120s`),
      );
      const listed = await cli(home, ['alerts', 'list', '--service', 'loop@production', '--all']);
      expect(listed.stdout).toMatch(/resolved\s+│ critical\s+│ container loop-production-web-1/);
      expect((await cli(home, ['alerts', 'list'])).code).not.toBe(0);
      expect((await cli(home, ['alerts', 'remove', ruleId, '--yes'])).code).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
