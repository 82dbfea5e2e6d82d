import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { call, cookieAuth, signUp } from './support/identity.js';
import { COMPOSE, readyService } from './support/deployments.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The reported stall: a valid compose with tens of thousands of extra top-level keys. */
function manyKeys(keys: number): string {
  const extra = Array.from({ length: keys }, (_, i) => `x-k${i}: ${i}`);
  return `${COMPOSE}${extra.join('\n')}\n`;
}

/** Resolves with the value, or fails once `ms` have passed (a bound, not a measurement). */
function within<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    Promise.resolve(promise).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function issues(res: { body: { error?: { data?: { issues?: unknown[] } } } }) {
  return (res.body.error?.data?.issues ?? []) as { path: string; message: string }[];
}

describe('compose documents are bounded before parsing and never stall the server', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let serverId: string;
  let serviceId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serverId, serviceId } = await readyService(t.url, owner));
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  const register = (compose: string) =>
    call(t.url, 'POST', 'registerService', owner, {
      name: `big-${Math.random().toString(36).slice(2, 8)}`,
      environment: 'production',
      serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose,
    });
  const update = (compose: string) =>
    call(t.url, 'POST', 'updateService', owner, { serviceId, compose });

  it.each([
    [
      '60,000 keys (~750 KB, over the size limit)',
      60_000,
      /compose must be shorter than or equal to 262144/,
    ],
    ['15,000 keys (under the size limit, over the node limit)', 15_000, /more than 10000 nodes/],
  ])(
    'refuses %s at registerService and updateService while health keeps answering',
    async (_, keys, message) => {
      const compose = manyKeys(keys);
      for (const send of [register, update]) {
        const [refused, health] = await within(
          Promise.all([send(compose), call(t.url, 'GET', 'health', {})]),
          20_000,
        );
        expect(health.status).toBe(200);
        expect([refused.status, refused.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
        expect(issues(refused)).toEqual([
          expect.objectContaining({ path: 'compose', message: expect.stringMatching(message) }),
        ]);
      }
    },
  );

  it('refuses compose nesting beyond the limit at compose planning as bad input', async () => {
    const res = await call(t.url, 'GET', 'composeDeploymentPlan', owner, {
      serverId,
      compose: `${COMPOSE}x-deep: ${'['.repeat(2_000)}${']'.repeat(2_000)}\n`,
    });
    expect([res.status, res.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    expect(issues(res)).toEqual([
      expect.objectContaining({
        path: 'compose',
        message: expect.stringMatching(/deeper than 32/),
      }),
    ]);
  });

  it('refuses a service that is not a mapping as bad input, never a 500', async () => {
    const compose = 'services:\n  api: 5\n';
    for (const res of [
      await register(compose),
      await update(compose),
      await call(t.url, 'GET', 'composeDeploymentPlan', owner, { serverId, compose }),
    ]) {
      expect(res.status).not.toBe(500);
    }
    const refused = await register(compose);
    expect([refused.status, refused.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    expect(issues(refused)).toEqual([
      expect.objectContaining({ path: 'compose.services.api', message: 'must be a mapping' }),
    ]);
    // A plan never says a check passed that it did not run: the policy cannot judge it.
    const plan = await call(t.url, 'GET', 'composeDeploymentPlan', owner, { serverId, compose });
    expect(plan.status).toBe(200);
    const checks = (
      plan.body.result.data.json as {
        preflightChecks: { check: string; status: string; detail: string }[];
      }
    ).preflightChecks;
    expect(checks.find((c) => c.check === 'compose-policy')).toEqual({
      check: 'compose-policy',
      status: 'fail',
      detail: expect.stringContaining('not judged'),
    });
  });

  it('still registers and plans an ordinary compose file', async () => {
    const res = await register(manyKeys(200));
    expect(res.status).toBe(200);
    const plan = await call(t.url, 'GET', 'composeDeploymentPlan', owner, {
      serverId,
      compose: COMPOSE,
    });
    expect(plan.status).toBe(200);
  });

  it('turns YAML parser warnings into issues and writes none of the text to the logs', async () => {
    const printed: string[] = [];
    const capture = (chunk: unknown) => {
      printed.push(String(chunk));
      return true;
    };
    jest.spyOn(process.stderr, 'write').mockImplementation(capture);
    jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    jest.spyOn(process, 'emitWarning').mockImplementation((warning) => {
      printed.push(String(warning));
    });
    const compose = `${COMPOSE}x-note: !forged-MARKER-tag\n  "FAKE [Nest] ERROR line"\n`;

    const registered = await register(compose);
    const updated = await update(compose);
    const planned = await call(t.url, 'GET', 'composeDeploymentPlan', owner, { serverId, compose });

    for (const res of [registered, updated]) {
      expect([res.status, res.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
      expect(issues(res)).toEqual([
        expect.objectContaining({
          path: 'compose',
          message: expect.stringMatching(/^Unresolved tag: !forged-MARKER-tag \(line 5/),
        }),
      ]);
    }
    expect(planned.status).toBe(200);
    expect(JSON.stringify(planned.body)).toContain('Unresolved tag');
    expect(printed.filter((text) => /MARKER|FAKE/.test(text))).toEqual([]);
  });
});
