import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli, cliHome } from './support/cli.js';
import { data } from './support/deployments.js';
import { dockerEngine, type DockerEngine } from './support/docker-engine.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  PASSWORD,
  signUp,
} from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
  waitForDeployment,
} from './support/sshd.js';
import { freePort } from './support/ports.js';
import { openSse } from './support/sse.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { MINUTE, TestClock } from './support/test-clock.js';
import { JobScheduler } from '../src/runner/jobs/job-scheduler.js';

interface Run {
  runId: string;
  trigger: string;
  scheduledFor: string | null;
  status: string;
  reason: string | null;
  exitCode: number | null;
  detail: string | null;
  containerName: string | null;
}

const PROJECT = 'cron-production';

/**
 * Scheduled jobs through the real runner, over a real sshd, on a real Docker engine: the test
 * clock moves, the scheduler starts the run that came due, and the engine runs the command in a
 * one-shot container of the service's current deployment.
 */
describe('scheduled jobs run on schedule on a real Docker engine', () => {
  let engine: DockerEngine;
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let hook: { server: Server; bodies: Record<string, unknown>[] };
  const clock = new TestClock();

  const define = async (input: Record<string, unknown>) =>
    data<{ jobId: string }>(
      await call(t.url, 'POST', 'defineScheduledJob', owner, { serviceId, ...input }),
    ).jobId;
  const runs = async (jobId: string) =>
    data<{ runs: Run[] }>(await call(t.url, 'GET', 'jobRuns', owner, { jobId })).runs;
  const finished = async (jobId: string, runId: string) => {
    for (let i = 0; i < 600; i++) {
      const run = (await runs(jobId)).find((r) => r.runId === runId);
      if (run && run.status !== 'running') return run;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`run ${runId} did not finish`);
  };
  const logs = async (jobId: string, runId: string) =>
    data<{ lines: { stream: string; text: string }[] }>(
      await call(t.url, 'GET', 'jobRunLogs', owner, { jobId, runId }),
    ).lines;
  const scheduler = () => t.app.get(JobScheduler);
  const jobContainers = () =>
    engine
      .docker(['ps', '--all', '--filter', `name=${PROJECT}-job-`, '--format', '{{.Names}}'])
      .trim();

  beforeAll(async () => {
    engine = dockerEngine();
    sshd = await startSshd({ engine });
    const received: Record<string, unknown>[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(
          JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        );
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hook = { server, bodies: received };
    const defaults = (await import('../src/config/app-config.js')).loadConfig({});
    t = await startTestApp({
      notes: false,
      clock,
      config: {
        serverAddressPolicy: ALLOW_LOOPBACK,
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
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    const port = await freePort();
    const image = `${engine.registry}/acme/api:1.0.0`;
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'cron',
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
    const { address } = hook.server.address() as AddressInfo & { address: string };
    const { port: hookPort } = hook.server.address() as AddressInfo;
    data(
      await call(t.url, 'POST', 'createNotificationChannel', owner, {
        name: 'ops',
        kind: 'webhook',
        target: `http://${address}:${hookPort}/hook`,
        subscriptions: ['job.failed'],
      }),
    );
  }, 5 * 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    engine?.removeProject(PROJECT);
    hook?.server.close();
  });

  it('runs when its schedule comes due, once, records the exit code and output, and notifies the failure', async () => {
    clock.toMiddleOf(MINUTE);
    const jobId = await define({
      name: 'report',
      schedule: '* * * * *',
      command: ['sh', '-c', 'echo hello from the job; echo oops >&2; exit 3'],
    });
    await scheduler().pass();
    expect(await runs(jobId)).toEqual([]);

    clock.advance(MINUTE);
    await scheduler().pass();
    await scheduler().pass(); // the same time again: claimed already, nothing more starts
    const started = await runs(jobId);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ trigger: 'schedule' });
    const run = await finished(jobId, started[0].runId);
    expect(run).toMatchObject({ status: 'failed', reason: 'exit-code', exitCode: 3 });
    const lines = await logs(jobId, run.runId);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stream: 'stdout', text: 'hello from the job' }),
        expect.objectContaining({ stream: 'stderr', text: 'oops' }),
      ]),
    );
    // The one-shot container is gone; the service's own keeps serving.
    expect(jobContainers()).toBe('');
    expect(engine.running(PROJECT, 'web')).toHaveLength(1);

    for (let i = 0; i < 200 && !hook.bodies.some((b) => b.subject === 'job.failed'); i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const note = hook.bodies.find((b) => b.subject === 'job.failed')!;
    expect(note.data).toMatchObject({ jobId, runId: run.runId, exitCode: 3, reason: 'exit-code' });

    // On the audit trail: the scheduler started it, the runner recorded its end.
    const trail = data<{ entries: { action: string; actor: { kind: string } }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { stream: `job-run-${run.runId}` }),
    ).entries;
    expect(trail.map((e) => e.action).sort()).toEqual(['JobRunFailed', 'JobRunStarted']);
  });

  it('stops a run at its time limit, and a manual run that succeeds', async () => {
    const slow = await define({
      name: 'slow',
      schedule: '@yearly',
      command: ['sh', '-c', 'echo starting; sleep 60'],
      timeLimitSeconds: 2,
    });
    const { runId } = data<{ runId: string }>(
      await call(t.url, 'POST', 'runScheduledJob', owner, { jobId: slow }),
    );
    // Its output, live, as server-sent events; the stream ends with the run.
    const stream = await openSse(`${t.url}/api/v1/jobs/${slow}/runs/${runId}/logs/stream`, owner);
    expect(stream.status).toBe(200);
    const line = await stream.waitFor((e) => e.event === 'line', 20_000);
    expect(JSON.parse(line.data)).toMatchObject({ line: 1, stream: 'stdout', text: 'starting' });
    const end = await stream.waitFor((e) => e.event === 'end', 20_000);
    expect(JSON.parse(end.data)).toMatchObject({ status: 'failed', lastLine: 1 });
    await stream.ended;
    const stopped = await finished(slow, runId);
    expect(stopped).toMatchObject({ status: 'failed', reason: 'timed-out', trigger: 'manual' });
    expect(jobContainers()).toBe('');

    const quick = await define({
      name: 'quick',
      schedule: '@yearly',
      command: ['sh', '-c', 'echo done'],
    });
    const manual = data<{ runId: string }>(
      await call(t.url, 'POST', 'runScheduledJob', owner, { jobId: quick }),
    ).runId;
    expect(await finished(quick, manual)).toMatchObject({ status: 'succeeded', exitCode: 0 });
    expect((await logs(quick, manual)).map((l) => l.text)).toEqual(['done']);
  });

  it('skips a time that comes due while the last run still runs (overlap: forbid)', async () => {
    const jobId = await define({
      name: 'long',
      schedule: '* * * * *',
      command: ['sh', '-c', 'sleep 4'],
      overlap: 'forbid',
    });
    clock.advance(MINUTE);
    await scheduler().pass();
    const [first] = await runs(jobId);
    expect(first.status).toBe('running');
    // The read model sees the run as running before the next time is looked at.
    for (let i = 0; i < 100; i++) {
      const jobs = data<{ jobs: { jobId: string; running: number }[] }>(
        await call(t.url, 'GET', 'scheduledJobs', owner, { serviceId }),
      ).jobs;
      if (jobs.find((j) => j.jobId === jobId)!.running === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    clock.advance(MINUTE);
    await scheduler().pass();
    const after = await runs(jobId);
    expect(after.map((r) => r.status).sort()).toEqual(['running', 'skipped']);
    expect(after.find((r) => r.status === 'skipped')).toMatchObject({ reason: 'overlap' });
    expect(await finished(jobId, first.runId)).toMatchObject({ status: 'succeeded' });
  });

  it('stops the running run for a newer one (overlap: replace)', async () => {
    const jobId = await define({
      name: 'replaced',
      schedule: '@yearly',
      command: ['sh', '-c', 'echo started; sleep 60'],
      overlap: 'replace',
    });
    const first = data<{ runId: string }>(
      await call(t.url, 'POST', 'runScheduledJob', owner, { jobId }),
    ).runId;
    // The read model counts it running before the next one is asked for.
    for (let i = 0; i < 100; i++) {
      const jobs = data<{ jobs: { jobId: string; running: number }[] }>(
        await call(t.url, 'GET', 'scheduledJobs', owner, { serviceId }),
      ).jobs;
      if (jobs.find((j) => j.jobId === jobId)!.running === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const second = data<{ runId: string }>(
      await call(t.url, 'POST', 'runScheduledJob', owner, { jobId }),
    ).runId;
    expect(await finished(jobId, first)).toMatchObject({ status: 'failed', reason: 'replaced' });
    const running = (await runs(jobId)).find((r) => r.runId === second)!;
    expect(running.status).toBe('running');
    // The new run's container, alone (it starts a moment after the run is answered).
    for (let i = 0; i < 200 && jobContainers() !== running.containerName; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(jobContainers()).toBe(running.containerName);
    // The replaced run's end is recorded once: its executor records nothing over it.
    const trail = data<{ entries: { action: string }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { stream: `job-run-${first}` }),
    ).entries;
    expect(trail.map((e) => e.action).sort()).toEqual(['JobRunFailed', 'JobRunStarted']);
    await call(t.url, 'POST', 'defineScheduledJob', owner, {
      jobId,
      serviceId,
      name: 'replaced',
      schedule: '@yearly',
      command: ['true'],
      overlap: 'replace',
    });
    engine.docker(['rm', '-f', running.containerName!]);
    await finished(jobId, second);
  });

  it("ships a run's output to a drain, named by its job and run", async () => {
    const receiver = await startOtlpReceiver();
    try {
      data(
        await call(t.url, 'POST', 'configureDrain', owner, {
          drainId: 'jobs',
          displayName: 'Jobs',
          kind: 'otlp',
          endpoint: receiver.url,
          sources: ['deployment-logs'],
        }),
      );
      const jobId = await define({
        name: 'drained',
        schedule: '@yearly',
        command: ['sh', '-c', 'echo to the drain'],
      });
      const runId = data<{ runId: string }>(
        await call(t.url, 'POST', 'runScheduledJob', owner, { jobId }),
      ).runId;
      expect(await finished(jobId, runId)).toMatchObject({ status: 'succeeded' });
      const records = await receiver.waitFor(
        (r) => r.some((x) => x.attributes['slipway.job.run.id'] === runId),
        "the run's output",
      );
      const line = records.find((x) => x.attributes['slipway.job.run.id'] === runId)!;
      expect(line).toMatchObject({
        body: 'to the drain',
        attributes: { 'slipway.job.id': jobId, 'slipway.service.id': serviceId },
      });
      data(await call(t.url, 'POST', 'removeDrain', owner, { drainId: 'jobs' }));
    } finally {
      await receiver.stop();
    }
  });

  it('refuses what a job may not be, and who may not define one', async () => {
    const refused = async (input: Record<string, unknown>, auth = owner) =>
      (
        await call(t.url, 'POST', 'defineScheduledJob', auth, {
          serviceId,
          name: 'x',
          schedule: '@daily',
          command: ['true'],
          ...input,
        })
      ).status;
    expect(await refused({ schedule: 'every day' })).toBe(400);
    expect(await refused({ schedule: '* * * * * *' })).toBe(400);
    expect(await refused({ timezone: 'Nowhere/Else' })).toBe(400);
    expect(await refused({ composeService: 'db' })).toBe(400);
    expect(await refused({ command: [] })).toBe(400);
    expect(await refused({ timeLimitSeconds: 0 })).toBe(400);
    const viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    expect(await refused({}, viewer)).toBe(403);
    // A job runs commands as a deploy does: changing a service's settings is not enough.
    const ownerCookie = owner.Cookie!;
    const settingsOnly = await createToken(t.url, ownerCookie, ['service:read', 'service:write']);
    const refusal = await call(t.url, 'POST', 'defineScheduledJob', bearer(settingsOnly.token), {
      serviceId,
      name: 'x',
      schedule: '* * * * *',
      command: ['sh', '-c', 'id'],
    });
    expect([refusal.status, refusal.body.error.data.missingScopes]).toEqual([
      403,
      ['deploy:start'],
    ]);

    const jobId = await define({ name: 'gone', schedule: '* * * * *', command: ['true'] });
    data(await call(t.url, 'POST', 'removeScheduledJob', owner, { jobId }));
    clock.advance(MINUTE);
    await scheduler().pass();
    expect(await runs(jobId)).toEqual([]);
    expect((await call(t.url, 'POST', 'runScheduledJob', owner, { jobId })).status).toBe(404);
  });

  it('is set, run and read with the CLI', async () => {
    const home = cliHome();
    try {
      const login = ['login', '--url', t.url, '--email', 'owner@example.com', '--password-stdin'];
      expect((await cli(home, login, {}, `${PASSWORD}\n`)).code).toBe(0);
      const set = await cli(home, [
        'jobs',
        'set',
        'cron@production',
        'from-cli',
        '--schedule',
        '@daily',
        '--timezone',
        'Europe/Paris',
        '--',
        'sh',
        '-c',
        'echo from the cli',
      ]);
      expect(set.code).toBe(0);
      const jobId = /: ([0-9a-f-]{36})$/.exec(set.stdout.trim())![1];
      const list = await cli(home, ['jobs', 'list', 'cron@production']);
      const row = list.stdout.split('\n').find((l) => l.includes('from-cli'))!;
      expect(row).toMatch(/@daily Europe\/Paris.*web.*sh -c echo from the cli/);
      const started = await cli(home, ['jobs', 'run', jobId]);
      const runId = /^Run (\S+) started$/.exec(started.stdout.trim())![1];
      expect(await finished(jobId, runId)).toMatchObject({ status: 'succeeded' });
      expect((await cli(home, ['jobs', 'runs', jobId])).stdout).toMatch(/manual.*succeeded.*0/);
      expect((await cli(home, ['jobs', 'logs', jobId, runId])).stdout).toBe('from the cli\n');
      expect((await cli(home, ['jobs', 'remove', jobId, '--yes'])).code).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
