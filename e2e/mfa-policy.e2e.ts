import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bearer, call, cookieAuth, signUp } from './support/identity.js';
import { enrol, mfaLogin } from './support/mfa.js';
import { TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type State = 'not enrolled' | 'enrolled, MFA session' | 'session older than enrolment';
const ROLES = ['owner', 'admin', 'operator', 'viewer'] as const;
const POLICIES = ['optional', 'privileged', 'all'] as const;

/** Spec 2.5: who must have passed the second factor under each policy. */
function blocked(policy: (typeof POLICIES)[number], role: string, state: State): boolean {
  const required = policy === 'all' || (policy === 'privileged' && role !== 'viewer');
  return required && state !== 'enrolled, MFA session';
}

async function surfaces(url: string, auth: Record<string, string>) {
  const procedure = await call(url, 'GET', 'members', auth, { limit: 1 });
  const rest = await fetch(`${url}/api/v1/members?limit=1`, { headers: auth });
  const restBody = (await rest.json()) as { error?: { code: string } };
  const controller = new AbortController();
  const stream = await fetch(`${url}/api/v1/projections/stream`, {
    headers: auth,
    signal: controller.signal,
  });
  let streamCode: string | null = null;
  if (stream.status === 200) {
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('projections');
    controller.abort();
  } else {
    streamCode = ((await stream.json()) as { error: { code: string } }).error.code;
  }
  return [
    [procedure.status, procedure.body.error?.code ?? null],
    [rest.status, restBody.error?.code ?? null],
    [stream.status, streamCode],
  ];
}

describe('team MFA policy on a procedure, a REST route and a stream', () => {
  const clock = new TestClock();
  let t: TestApp;
  let ownerMfa: string;
  const sessions: { role: string; state: State; cookie: string }[] = [];
  let agentToken: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    const owner = await signUp(t.url, 'owner@example.com');
    const ownerSecret = (await enrol(t.url, owner.cookie, clock)).secret;
    ownerMfa = await mfaLogin(t.url, 'owner@example.com', ownerSecret, clock);
    sessions.push({ role: 'owner', state: 'session older than enrolment', cookie: owner.cookie });
    sessions.push({ role: 'owner', state: 'enrolled, MFA session', cookie: ownerMfa });
    const plainOwner = await signUp(t.url, 'owner2@example.com');
    await call(t.url, 'POST', 'changeUserRole', cookieAuth(ownerMfa), {
      userId: plainOwner.userId,
      role: 'owner',
    });
    sessions.push({ role: 'owner', state: 'not enrolled', cookie: plainOwner.cookie });
    for (const role of ROLES.filter((r) => r !== 'owner')) {
      const plain = await signUp(t.url, `${role}-plain@example.com`);
      const later = await signUp(t.url, `${role}-mfa@example.com`);
      for (const u of [plain, later]) {
        if (role !== 'viewer')
          await call(t.url, 'POST', 'changeUserRole', cookieAuth(ownerMfa), {
            userId: u.userId,
            role,
          });
      }
      const { secret } = await enrol(t.url, later.cookie, clock);
      sessions.push({ role, state: 'not enrolled', cookie: plain.cookie });
      sessions.push({ role, state: 'session older than enrolment', cookie: later.cookie });
      sessions.push({
        role,
        state: 'enrolled, MFA session',
        cookie: await mfaLogin(t.url, `${role}-mfa@example.com`, secret, clock),
      });
    }
    const agent = await call(t.url, 'POST', 'createAgent', cookieAuth(ownerMfa), {
      name: 'bot',
      preset: 'agent:full',
    });
    const minted = await call(t.url, 'POST', 'generateAgentToken', cookieAuth(ownerMfa), {
      principalId: agent.body.result.data.json.principalId,
      tokenName: 'b',
      expiresInDays: 1,
    });
    agentToken = minted.body.result.data.json.token;
  });
  afterAll(async () => t.close());

  for (const policy of POLICIES) {
    it(`policy ${policy}: blocks exactly the sessions spec 2.5 names, on every surface`, async () => {
      const set = await call(t.url, 'POST', 'updateAccountSecurityPolicy', cookieAuth(ownerMfa), {
        policy,
      });
      expect(set.status).toBe(200);
      for (const s of sessions) {
        const results = await surfaces(t.url, cookieAuth(s.cookie));
        const expected = blocked(policy, s.role, s.state) ? [403, 'MFA_REQUIRED'] : [200, null];
        expect([s.role, s.state, results]).toEqual([
          s.role,
          s.state,
          [expected, expected, expected],
        ]);
      }
    });
  }

  it('leaves agents’ tokens alone under policy all', async () => {
    await call(t.url, 'POST', 'updateAccountSecurityPolicy', cookieAuth(ownerMfa), {
      policy: 'all',
    });
    const res = await fetch(`${t.url}/api/v1/projections/stream`, {
      headers: bearer(agentToken),
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    expect((await call(t.url, 'GET', 'viewer', bearer(agentToken))).status).toBe(200);
  });

  it('keeps what a blocked user needs to comply reachable, and says what is required', async () => {
    await call(t.url, 'POST', 'updateAccountSecurityPolicy', cookieAuth(ownerMfa), {
      policy: 'all',
    });
    const viewer = sessions.find((s) => s.role === 'viewer' && s.state === 'not enrolled')!;
    const denied = await call(t.url, 'GET', 'members', cookieAuth(viewer.cookie), { limit: 1 });
    expect(denied.body.error.data).toMatchObject({
      policy: 'all',
      requirement: expect.any(String),
    });
    const status = await call(t.url, 'GET', 'accountSecurityStatus', cookieAuth(viewer.cookie));
    expect(status.body.result.data.json).toMatchObject({
      policy: 'all',
      setBy: expect.any(String),
      caller: { enrolled: false, required: true, satisfied: false },
    });
    expect((await call(t.url, 'GET', 'viewer', cookieAuth(viewer.cookie))).status).toBe(200);
    expect((await fetch(`${t.url}/api/v1/me`, { headers: cookieAuth(viewer.cookie) })).status).toBe(
      200,
    );
    const start = await call(t.url, 'POST', 'startMfaEnrollment', cookieAuth(viewer.cookie), {
      password: 'correct horse battery staple',
    });
    expect(start.status).toBe(200);
  });

  it('lets only owners and admins change the policy, and validates the value', async () => {
    const operator = sessions.find(
      (s) => s.role === 'operator' && s.state === 'enrolled, MFA session',
    )!;
    const denied = await call(
      t.url,
      'POST',
      'updateAccountSecurityPolicy',
      cookieAuth(operator.cookie),
      { policy: 'optional' },
    );
    expect([denied.status, denied.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const bad = await call(t.url, 'POST', 'updateAccountSecurityPolicy', cookieAuth(ownerMfa), {
      policy: 'sometimes',
    });
    expect(bad.status).toBe(400);
  });
});
