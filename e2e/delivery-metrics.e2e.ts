import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DeploymentStateMachine } from '../src/deployments/deployment-state-machine.js';
import { anonymousContext, type RequestContext } from '../src/kernel/request-context.js';
import { cli, cliHome } from './support/cli.js';
import { data, readyService, runToSuccess } from './support/deployments.js';
import { bearer, call, cookieAuth, createToken, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Metrics {
  serviceName: string | null;
  succeeded: number;
  failed: number;
  changeFailureRate: number | null;
  timeToRestoreSeconds: { median: number; count: number } | null;
  unrestoredFailures: number;
  leadTimeSeconds: { count: number } | null;
  daily: { date: string; succeeded: number; failed: number }[];
}

/** deliveryMetrics over HTTP and through `slipway metrics`, from deployments driven to their end. */
describe('deliveryMetrics and slipway metrics', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let token: string;
  let ownerCookie: string;
  let serviceId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    const account = await signUp(t.url, 'owner@example.com');
    ownerCookie = account.cookie;
    owner = cookieAuth(account.cookie);
    ({ serviceId } = await readyService(t.url, owner));
    const trigger = async (tag: string) =>
      data<{ deploymentId: string }>(
        await call(t.url, 'POST', 'triggerDeploy', owner, {
          serviceId,
          imageTag: `ghcr.io/acme/api:${tag}`,
        }),
      ).deploymentId;
    await runToSuccess(t.app, await trigger('1.0.0'), serviceId, 'ghcr.io/acme/api:1.0.0');
    const failed = await trigger('1.1.0');
    const ctx: RequestContext = {
      ...anonymousContext('runner', 'runner', null),
      authMethod: 'system',
    };
    const machine = t.app.get(DeploymentStateMachine);
    await machine.apply({ kind: 'start', deploymentId: failed, runnerId: 'test' }, ctx);
    await machine.apply(
      { kind: 'fail', deploymentId: failed, reason: 'pull failed', step: 'pull' },
      ctx,
    );
    await runToSuccess(t.app, await trigger('1.1.1'), serviceId, 'ghcr.io/acme/api:1.1.1');
    await trigger('1.2.0'); // still queued: not counted
    token = (await createToken(t.url, account.cookie, ['deploy:read', 'server:read'], 1)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts successes and failures of the window, the failure rate and the restore', async () => {
    const answer = data<{ window: { days: number }; overall: Metrics; services: Metrics[] }>(
      await call(t.url, 'GET', 'deliveryMetrics', owner, { windowDays: 7 }),
    );
    expect(answer.window.days).toBe(7);
    expect(answer.overall).toMatchObject({
      succeeded: 2,
      failed: 1,
      changeFailureRate: 0.333,
      unrestoredFailures: 0,
      leadTimeSeconds: { count: 2 },
      timeToRestoreSeconds: { count: 1 },
    });
    expect(answer.overall.daily).toHaveLength(7);
    // All today's (or, had UTC midnight fallen between the deploys and this read, yesterday's too).
    const daily = answer.overall.daily;
    const total = (key: 'succeeded' | 'failed') => daily.reduce((n, day) => n + day[key], 0);
    expect([total('succeeded'), total('failed')]).toEqual([2, 1]);
    expect(daily.slice(0, -2).every((day) => day.succeeded + day.failed === 0)).toBe(true);
    expect(answer.services.map((s) => s.serviceName)).toEqual(['api']);
  });

  it('refuses bad input by field, and a token without deploy:read', async () => {
    const bad = await call(t.url, 'GET', 'deliveryMetrics', owner, { windowDays: 91 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('windowDays');
    const nulled = await call(t.url, 'GET', 'deliveryMetrics', owner, { environment: null });
    expect(nulled.status).toBe(400);
    const narrow = (await createToken(t.url, ownerCookie, ['members:read'], 1)).token;
    const refused = await call(t.url, 'GET', 'deliveryMetrics', bearer(narrow), {});
    expect(refused.status).toBe(403);
  });

  it('prints them with slipway metrics', async () => {
    const home = cliHome();
    const env = { SLIPWAY_URL: t.url, SLIPWAY_TOKEN: token };
    const json = await cli(home, ['metrics', '--days', '7', '--service', 'api', '--json'], env);
    expect(json.code).toBe(0);
    expect((json.json.data as { overall: Metrics }).overall.failed).toBe(1);
    const human = await cli(home, ['metrics', '--days', '7'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('change failure rate');
    expect(human.stdout).toMatch(/api@production\s.*33\.3%/);
    const refused = await cli(home, ['metrics', '--days', '0'], env);
    expect(refused.code).not.toBe(0);
  });
});
