import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { after } from '../src/api-v1/log-line-time.js';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { freePort } from './support/ports.js';
import { cli, cliHome } from './support/cli.js';
import { openSse } from './support/sse.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PROJECT = 'web-streams';

interface Line {
  line: number;
  step: string;
  stream: string;
  text: string;
  at: string;
}

/**
 * Log streams and observability over a real sshd and a real Docker engine: a deployment's output
 * as server-sent events (every line in order, resume, end), the service's container logs
 * followed, its status and stats as the engine reports them, and the server check.
 */
describe('log streams and service observability on a real Docker engine', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let ownerCookie: string;
  let serverId: string;
  let serviceId: string;
  let port: number;
  let image: (tag: string) => string;

  const deploy = async (tag: string) =>
    data<{ deploymentId: string }>(
      await call(t.url, 'POST', 'triggerDeploy', owner, { serviceId, imageTag: image(tag) }),
    ).deploymentId;
  const storedLines = async (deploymentId: string) =>
    data<{ lines: Line[] }>(
      await call(t.url, 'GET', 'deploymentLogs', owner, { deploymentId, limit: 1000 }),
    ).lines;
  const logStream = (id: string, headers: Record<string, string> = {}, query = '') =>
    openSse(`${t.url}/api/v1/deployments/${id}/logs/stream${query}`, { ...owner, ...headers });
  const linesOf = (events: { event?: string; data: string }[]) =>
    events.filter((e) => e.event === 'line').map((e) => JSON.parse(e.data) as Line);

  beforeAll(async () => {
    engine = dockerEngine();
    image = (tag) => `${engine.registry}/acme/api:${tag}`;
    sshd = await startSshd({ engine });
    t = await startTestApp({
      notes: false,
      config: { serverAddressPolicy: ALLOW_LOOPBACK, serverCheckTimeoutSeconds: 10 },
    });
    t.config.streams.heartbeatMs = 200;
    await startRunnerFor(t, sshd);
    const account = await signUp(t.url, 'owner@example.com');
    ownerCookie = account.cookie;
    owner = cookieAuth(ownerCookie);
    serverId = await registerLoopbackServer(t.url, owner, sshd);
    port = await freePort();
    // httpd -vv logs each request on stderr: the health check every second gives a live log.
    const command = `trap 'exit 0' TERM; echo slipway-start; httpd -f -vv -p 80 -h /www & wait $!`;
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'web',
        environment: 'streams',
        serverId,
        imageRepository: `${engine.registry}/acme/api`,
        compose: `services:\n  web:\n    image: ${image('1.0.0')}\n    command: ["sh", "-c", ${JSON.stringify(command)}]\n    ports: ["127.0.0.1:${port}:80"]\n`,
      }),
    ).serviceId;
  }, 5 * 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    engine?.removeProject(PROJECT);
  });

  let firstId: string;

  it('pushes every line of a real deployment in order as it runs, then an end event', async () => {
    firstId = await deploy('1.0.0');
    const stream = await logStream(firstId);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const end = await stream.waitFor((e) => e.event === 'end', 60_000);
    await stream.ended;
    const received = linesOf(stream.events);
    const stored = await storedLines(firstId);
    expect(JSON.parse(end.data)).toEqual({ status: 'succeeded', lastLine: stored.length });
    expect(stored.length).toBeGreaterThan(3);
    expect(received).toEqual(
      stored.map(({ line, step, stream: s, text, at }) => ({ line, step, stream: s, text, at })),
    );
    expect(received.map((l) => l.line)).toEqual(stored.map((_, i) => i + 1));
    // The id of each event is its line number; the end event's is `end` (a reconnect: 204).
    expect(stream.events.filter((e) => e.event === 'line').map((e) => e.id)).toEqual(
      received.map((l) => String(l.line)),
    );
    expect(end.id).toBe('end');
    expect(received.map((l) => l.step)).toEqual(expect.arrayContaining(['pull', 'up']));
  }, 90_000);

  it('resumes after a dropped connection with Last-Event-ID: no line lost or repeated', async () => {
    const id = await deploy('1.1.0');
    const first = await logStream(id);
    await first.waitFor((e) => e.event === 'line' && Number(e.id) >= 2, 60_000);
    first.close();
    const lastSeen = Number(linesOf(first.events).at(-1)!.line);
    const second = await logStream(id, { 'Last-Event-ID': String(lastSeen) });
    const end = await second.waitFor((e) => e.event === 'end', 60_000);
    expect(JSON.parse(end.data)).toMatchObject({ status: 'succeeded' });
    const joined = [
      ...linesOf(first.events).filter((l) => l.line <= lastSeen),
      ...linesOf(second.events),
    ];
    expect(joined.map((l) => l.line)).toEqual((await storedLines(id)).map((l) => l.line));
    expect(linesOf(second.events)[0].line).toBe(lastSeen + 1);
  }, 90_000);

  it('starts after ?after= on a finished deployment and ends at once', async () => {
    const stored = await storedLines(firstId);
    const stream = await logStream(firstId, {}, '?after=3');
    await stream.ended;
    expect(linesOf(stream.events).map((l) => l.line)).toEqual(stored.slice(3).map((l) => l.line));
    expect(stream.events.at(-1)?.event).toBe('end');
    // Last-Event-ID wins over ?after= (an EventSource keeps its first URL when it reconnects).
    const resumed = await logStream(
      firstId,
      { 'Last-Event-ID': String(stored.length) },
      '?after=1',
    );
    await resumed.ended;
    expect(linesOf(resumed.events)).toEqual([]);
  });

  it('reports the running container: state, health, restarts, published port, image digest', async () => {
    const res = await request(t.url).get(`/api/v1/services/${serviceId}/status`).set(owner);
    expect(res.status).toBe(200);
    const localId = engine
      .docker(['image', 'inspect', '--format', '{{.Id}}', image('1.1.0')])
      .trim();
    expect(res.body).toMatchObject({ serviceId, project: PROJECT });
    expect(res.body.containers).toEqual([
      expect.objectContaining({
        name: `${PROJECT}-web-1`,
        service: 'web',
        state: 'running',
        health: 'healthy',
        restarts: 0,
        image: image('1.1.0'),
        imageDigest: localId,
        publishedPorts: [expect.objectContaining({ publishedPort: port, targetPort: 80 })],
      }),
    ]);
  });

  it('answers the same status and stats as read procedures (/trpc, MCP)', async () => {
    const status = data<{ containers: { state: string; health: string }[] }>(
      await call(t.url, 'GET', 'serviceStatus', owner, { serviceId }),
    );
    expect(status.containers).toEqual([
      expect.objectContaining({ state: 'running', health: 'healthy' }),
    ]);
    const stats = data<{ containers: { name: string }[] }>(
      await call(t.url, 'GET', 'serviceStats', owner, { serviceId }),
    );
    expect(stats.containers.map((c) => c.name)).toEqual([`${PROJECT}-web-1`]);
  });

  it('reports resource use of the running container from docker stats', async () => {
    const res = await request(t.url).get(`/api/v1/services/${serviceId}/stats`).set(owner);
    expect(res.status).toBe(200);
    expect(res.body.containers).toEqual([
      expect.objectContaining({
        name: `${PROJECT}-web-1`,
        cpuPercent: expect.any(Number),
        memoryUsage: expect.stringMatching(/B \/ /),
        networkIo: expect.stringMatching(/B \/ /),
      }),
    ]);
  });

  it('follows the container log with a tail, heartbeats, and ends at the time limit', async () => {
    const stream = await openSse(
      `${t.url}/api/v1/services/${serviceId}/logs/stream?tail=5&seconds=3`,
      owner,
    );
    expect(stream.status).toBe(200);
    await stream.ended;
    const lines = stream.events.filter((e) => e.event === 'line').map((e) => JSON.parse(e.data));
    // The health check's requests arrive each second: more than the tail of five.
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.map((l: { line: number }) => l.line)).toEqual(
      lines.map((_: unknown, i: number) => i + 1),
    );
    expect(lines.some((l: { text: string }) => /GET \/health|health/.test(l.text))).toBe(true);
    expect(stream.events.at(-1)?.event).toBe('end');
    expect(stream.comments).toContain('ping');
  }, 30_000);

  it('resumes the container log after Last-Event-ID (a line’s time), replaying nothing', async () => {
    const url = `${t.url}/api/v1/services/${serviceId}/logs/stream?tail=5&seconds=2`;
    const first = await openSse(url, owner);
    await first.ended;
    const seen = first.events.filter((e) => e.event === 'line');
    const last = seen.at(-1)!;
    expect(last.id).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    const second = await openSse(url.replace('seconds=2', 'seconds=3'), {
      ...owner,
      'Last-Event-ID': last.id!,
    });
    await second.ended;
    const resumed = second.events.filter((e) => e.event === 'line');
    expect(resumed.length).toBeGreaterThan(0);
    for (const e of resumed) expect(after(e.id!, last.id!)).toBe(true);
    const texts = new Set(seen.map((e) => (JSON.parse(e.data) as { text: string }).text));
    expect(resumed.some((e) => texts.has((JSON.parse(e.data) as { text: string }).text))).toBe(
      false,
    );
    // After the end, a reconnect is told there is nothing more.
    const done = await request(t.url)
      .get(`/api/v1/services/${serviceId}/logs/stream`)
      .set({ ...owner, 'Last-Event-ID': 'end' });
    expect(done.status).toBe(204);
  }, 30_000);

  it('stops the remote docker compose logs when the client goes away', async () => {
    const stream = await openSse(
      `${t.url}/api/v1/services/${serviceId}/logs/stream?tail=0&seconds=600`,
      owner,
    );
    await stream.waitFor((e) => e.event === 'line', 10_000);
    // The sshd runs on this machine as the user running the tests: its commands are visible here.
    const following = () => {
      try {
        return execFileSync('pgrep', ['-f', 'compose --project-name web-streams logs'], {
          encoding: 'utf8',
        }).trim();
      } catch {
        return ''; // pgrep exits 1 when nothing matches
      }
    };
    expect(following()).not.toBe('');
    stream.close();
    const deadline = Date.now() + 10_000;
    while (following() !== '' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(following()).toBe('');
  }, 30_000);

  it('checks the server: reachable, host key, login, docker and compose versions, disk', async () => {
    const res = await request(t.url).post(`/api/v1/servers/${serverId}/check`).set(owner);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      serverId,
      ok: true,
      mode: 'login',
      reachable: true,
      hostKeyMatches: true,
      authenticated: true,
      docker: expect.stringMatching(/^\d+\.\d+/),
      compose: expect.stringMatching(/^v?2\.\d+/),
      diskFreeKib: expect.any(Number),
    });
  });

  it('the CLI follows, shows status and stats, tails container logs and checks the server', async () => {
    const { token } = await createToken(t.url, ownerCookie, [
      'logs:read',
      'diagnostics:read',
      'deploy:read',
      'service:read',
      'server:read',
    ]);
    const home = cliHome();
    const env = { SLIPWAY_URL: t.url, SLIPWAY_TOKEN: token };
    const stored = await storedLines(firstId);
    const human = await cli(home, ['logs', firstId, '--follow'], env);
    expect(human.code).toBe(0);
    expect(human.stdout.trim().split('\n')).toEqual([
      ...stored.map((l) => `[${l.step}] ${l.text}`),
      '… succeeded',
    ]);
    const json = await cli(home, ['logs', firstId, '--follow', '--json'], env);
    expect(json.json.data).toMatchObject({ status: 'succeeded' });
    expect((json.json.data!.lines as Line[]).map((l) => l.line)).toEqual(stored.map((l) => l.line));
    const status = await cli(home, ['services', 'status', 'web@streams', '--json'], env);
    expect(status.json.data!.containers).toEqual([
      expect.objectContaining({ state: 'running', health: 'healthy' }),
    ]);
    const stats = await cli(home, ['services', 'stats', 'web@streams'], env);
    expect([stats.code, stats.stdout]).toEqual([0, expect.stringContaining(`${PROJECT}-web-1`)]);
    const tail = await cli(home, ['services', 'logs', 'web@streams', '--tail', '2', '--json'], env);
    expect((tail.json.data!.lines as Line[]).length).toBe(2);
    const bad = await cli(home, ['services', 'logs', 'web@streams', '--tail', '9999'], env);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('--tail')]);
    const check = await cli(home, ['servers', 'check', 'loopback', '--versions'], env);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/docker\s+\d+\.\d+/);
  }, 60_000);

  describe('refuses bad input and missing access, never with a 500', () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const routes = (id: string) => [
      `/api/v1/deployments/${id}/logs/stream`,
      `/api/v1/services/${id}/logs/stream`,
      `/api/v1/services/${id}/status`,
      `/api/v1/services/${id}/stats`,
      `/api/v1/servers/${id}/check`,
    ];
    /** The check connects to the server: a POST; the others are reads. */
    const send = (path: string) =>
      path.endsWith('/check') ? request(t.url).post(path) : request(t.url).get(path);

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      for (const path of routes('not-a-uuid')) {
        const res = await send(path).set(owner);
        expect([path, res.status, res.body.error?.code]).toEqual([path, 400, 'BAD_REQUEST']);
      }
      for (const path of routes(unknown)) {
        const res = await send(path).set(owner);
        expect([path, res.status, res.body.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
      }
    });

    it('answers 401 without credentials', async () => {
      for (const path of routes(unknown)) {
        const res = await send(path);
        expect([path, res.status, res.body.error?.code]).toEqual([path, 401, 'AUTH_REQUIRED']);
      }
    });

    it('answers 403 with requiredScopes and grantedScopes to a token without the scope', async () => {
      const { token } = await createToken(t.url, ownerCookie, ['deploy:read', 'service:read']);
      const expected: [string, string][] = [
        [`/api/v1/deployments/${firstId}/logs/stream`, 'logs:read'],
        [`/api/v1/services/${serviceId}/logs/stream`, 'logs:read'],
        [`/api/v1/services/${serviceId}/status`, 'diagnostics:read'],
        [`/api/v1/services/${serviceId}/stats`, 'diagnostics:read'],
        [`/api/v1/servers/${serverId}/check`, 'diagnostics:read'],
      ];
      for (const [path, scope] of expected) {
        const res = await send(path).set(bearer(token));
        expect([path, res.status, res.body.error?.code]).toEqual([path, 403, 'FORBIDDEN']);
        expect(res.body.error.data).toMatchObject({
          requiredScopes: [scope],
          grantedScopes: ['deploy:read', 'service:read'],
        });
      }
      const { token: reader } = await createToken(t.url, ownerCookie, ['logs:read']);
      const ok = await logStream(firstId, bearer(reader));
      await ok.ended;
      expect(ok.events.at(-1)?.event).toBe('end');
    });

    it('lets a viewer read logs and status but not make the server connect', async () => {
      const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
      const status = await request(t.url).get(`/api/v1/services/${serviceId}/status`).set(viewer);
      expect(status.status).toBe(200);
      const check = await request(t.url).post(`/api/v1/servers/${serverId}/check`).set(viewer);
      expect([check.status, check.body.error.code]).toEqual([403, 'FORBIDDEN']);
    });

    it('bounds tail, seconds, after and Last-Event-ID', async () => {
      const bad = [
        `/api/v1/services/${serviceId}/logs/stream?tail=5001`,
        `/api/v1/services/${serviceId}/logs/stream?tail=-1`,
        `/api/v1/services/${serviceId}/logs/stream?seconds=0`,
        `/api/v1/services/${serviceId}/logs/stream?seconds=3601`,
        `/api/v1/services/${serviceId}/logs/stream?seconds=abc`,
        `/api/v1/services/${serviceId}/logs/stream?tail=1&tail=2`,
        `/api/v1/services/${serviceId}/logs/stream?follow=1`,
        `/api/v1/services/${serviceId}/logs/stream?follow=yes&tail=1`,
        `/api/v1/services/${serviceId}/logs/stream?lines=1`,
        `/api/v1/deployments/${firstId}/logs/stream?after=-1`,
        `/api/v1/deployments/${firstId}/logs/stream?after=1e3`,
      ];
      for (const path of bad) {
        const res = await request(t.url).get(path).set(owner);
        expect([path, res.status, res.body.error?.code]).toEqual([path, 400, 'BAD_REQUEST']);
        expect(res.body.error.data.issues.length).toBeGreaterThan(0);
      }
      for (const header of ['abc', '-1', '99999999999', '1.5']) {
        const res = await request(t.url)
          .get(`/api/v1/deployments/${firstId}/logs/stream`)
          .set({ ...owner, 'Last-Event-ID': header });
        expect([header, res.status]).toEqual([header, 400]);
      }
    });
  });
});
