import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import { allEvents } from './support/audit.js';
import { bearer, call, cookieAuth, createToken, signUp } from './support/identity.js';
import { enrol, mfaLogin } from './support/mfa.js';
import { agentToken, mcpClient, toolError } from './support/mcp.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { TestClock } from './support/test-clock.js';

/** What a surface answered: the error's code and data, and the request it was recorded under. */
interface Refused {
  status: number | null;
  code: string;
  data: Record<string, unknown>;
  requestId: string;
}

function fromHttp(res: request.Response): Refused {
  const { code, data } = res.body.error as { code: string; data: Record<string, unknown> };
  return { status: res.status, code, data, requestId: res.headers['x-request-id'] as string };
}

/** The refusal event recorded for one request: there must be exactly one. */
async function recordOf(t: TestApp, requestId: string): Promise<RecordedEvent> {
  const records = (await allEvents(t)).filter(
    (e) => e.stream === 'audit-refusals' && e.metadata.requestId === requestId,
  );
  expect(records).toHaveLength(1);
  return records[0];
}

/** What must be the same whatever the surface: the kind of record, its code, lane and caller. */
function sameParts(event: RecordedEvent) {
  const { actor, authMethod, tokenId } = event.metadata;
  const { code, lane } = event.data as { code: string; lane: string };
  return { type: event.type, code, lane, actor, authMethod, tokenId };
}

/** Where the record says the call came in. */
function whereFrom(event: RecordedEvent) {
  const { surface, target, channel } = event.data as Record<string, unknown>;
  return { surface, target, channel: channel ?? 'http' };
}

describe('one pipeline: the same refusal and the same audit record on every surface', () => {
  const clock = new TestClock();
  let t: TestApp;
  let ownerMfa: Record<string, string>;
  let viewerCookie: string;
  const serverId = randomUUID();
  const clients: Client[] = [];

  const viaMcp = async (
    token: string,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<Refused> => {
    const client = await mcpClient(t.url, token);
    clients.push(client);
    const error = toolError(await client.callTool({ name: tool, arguments: args }));
    const requestId = String(error.data.requestId);
    return { status: null, code: error.code, data: error.data, requestId };
  };

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    const owner = await signUp(t.url, 'owner@example.com');
    const { secret } = await enrol(t.url, owner.cookie, clock);
    ownerMfa = cookieAuth(await mfaLogin(t.url, 'owner@example.com', secret, clock));
    viewerCookie = (await signUp(t.url, 'viewer@example.com')).cookie;
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await t.close();
  });

  it('a token missing the scope: FORBIDDEN with the missing scope, recorded as AccessDenied', async () => {
    const { token } = await createToken(t.url, ownerMfa.Cookie, ['deploy:read']);
    const trpc = fromHttp(await call(t.url, 'GET', 'members', bearer(token), { limit: 5 }));
    const rest = fromHttp(await request(t.url).get('/api/v1/members?limit=5').set(bearer(token)));
    const mcp = await viaMcp(token, 'members', { limit: 5 });
    for (const refused of [trpc, rest]) expect(refused.status).toBe(403);
    for (const refused of [trpc, rest, mcp]) {
      expect(refused).toMatchObject({
        code: 'FORBIDDEN',
        data: { missingScopes: ['members:read'], grantedScopes: ['deploy:read'] },
      });
    }
    const records = await Promise.all([trpc, rest, mcp].map((r) => recordOf(t, r.requestId)));
    expect(records.map(sameParts)).toEqual(
      Array(3).fill({
        type: 'AccessDenied',
        code: 'FORBIDDEN',
        lane: 'read',
        actor: expect.objectContaining({ kind: 'user', role: 'owner' }),
        authMethod: 'token',
        tokenId: expect.any(String),
      }),
    );
    expect(new Set(records.map((r) => JSON.stringify(sameParts(r)))).size).toBe(1);
    expect(records.map(whereFrom)).toEqual([
      { surface: 'procedure', target: 'members', channel: 'http' },
      { surface: 'route', target: 'GET /api/v1/members', channel: 'http' },
      { surface: 'procedure', target: 'members', channel: 'mcp' },
    ]);
  });

  it('a role too low: FORBIDDEN naming the roles allowed, recorded as AccessDenied', async () => {
    // `members` is for humans: an agent's role is refused whatever its token's scopes.
    const { token } = await agentToken(t.url, ownerMfa, 'bot', 'agent:full');
    const trpc = fromHttp(await call(t.url, 'GET', 'members', bearer(token), { limit: 5 }));
    const rest = fromHttp(await request(t.url).get('/api/v1/members?limit=5').set(bearer(token)));
    const mcp = await viaMcp(token, 'members', { limit: 5 });
    for (const refused of [trpc, rest]) expect(refused.status).toBe(403);
    for (const refused of [trpc, rest, mcp]) {
      expect(refused).toMatchObject({
        code: 'FORBIDDEN',
        data: { role: 'agent', requiredRoles: ['owner', 'admin', 'operator', 'viewer'] },
      });
    }
    const records = await Promise.all([trpc, rest, mcp].map((r) => recordOf(t, r.requestId)));
    expect(sameParts(records[0])).toEqual({
      type: 'AccessDenied',
      code: 'FORBIDDEN',
      lane: 'read',
      actor: expect.objectContaining({ kind: 'agent', role: 'agent' }),
      authMethod: 'token',
      tokenId: expect.any(String),
    });
    expect(new Set(records.map((r) => JSON.stringify(sameParts(r)))).size).toBe(1);
    expect(records.map(whereFrom)).toEqual([
      { surface: 'procedure', target: 'members', channel: 'http' },
      { surface: 'route', target: 'GET /api/v1/members', channel: 'http' },
      { surface: 'procedure', target: 'members', channel: 'mcp' },
    ]);
  });

  it('invalid input: BAD_REQUEST naming the field, recorded as CommandRejected, a hook delivery too', async () => {
    const { token } = await createToken(t.url, ownerMfa.Cookie, ['server:write']);
    const input = { serverId, reference: '' };
    const trpc = fromHttp(await call(t.url, 'POST', 'pullServerImage', bearer(token), input));
    const rest = fromHttp(
      await request(t.url)
        .post(`/api/v1/servers/${serverId}/images/pull`)
        .set(bearer(token))
        .send({ reference: '' }),
    );
    const mcp = await viaMcp(token, 'pullServerImage', input);
    for (const refused of [trpc, rest]) expect(refused.status).toBe(400);
    for (const refused of [trpc, rest, mcp]) {
      expect(refused.code).toBe('BAD_REQUEST');
      const issues = refused.data.issues as { path: string }[];
      expect(issues.length).toBeGreaterThan(0);
      expect(issues.map((issue) => issue.path)).toEqual(issues.map(() => 'reference'));
      expect(issues).toEqual(trpc.data.issues);
    }
    const records = await Promise.all([trpc, rest, mcp].map((r) => recordOf(t, r.requestId)));
    expect(sameParts(records[0])).toEqual({
      type: 'CommandRejected',
      code: 'BAD_REQUEST',
      lane: 'command',
      actor: expect.objectContaining({ kind: 'user', role: 'owner' }),
      authMethod: 'token',
      tokenId: expect.any(String),
    });
    expect(new Set(records.map((r) => JSON.stringify(sameParts(r)))).size).toBe(1);
    for (const record of records) {
      expect((record.data as { inputFields: string[] }).inputFields).toContain('reference');
    }

    // A hook delivery has no role or scope to refuse, but its input is judged the same way.
    const hook = fromHttp(
      await request(t.url)
        .post(`/api/v1/hooks/${randomUUID()}`)
        .set('Content-Type', 'text/plain')
        .send('not json'),
    );
    expect([hook.status, hook.code]).toEqual([400, 'BAD_REQUEST']);
    const hookRecord = await recordOf(t, hook.requestId);
    expect(sameParts(hookRecord)).toMatchObject({
      type: 'CommandRejected',
      code: 'BAD_REQUEST',
      lane: 'command',
      actor: { kind: 'anonymous', principalId: null, role: null },
    });
    expect(whereFrom(hookRecord)).toEqual({
      surface: 'route',
      target: 'POST /api/v1/hooks/:hookId',
      channel: 'http',
    });
  });

  it('REST validates as its procedure does, and its answers are never cached', async () => {
    const { token } = await createToken(t.url, ownerMfa.Cookie, ['members:read']);
    const tooMany = fromHttp(
      await request(t.url).get('/api/v1/members?limit=1000').set(bearer(token)),
    );
    const viaTrpc = fromHttp(await call(t.url, 'GET', 'members', bearer(token), { limit: 1000 }));
    expect([tooMany.status, tooMany.code]).toEqual([400, 'BAD_REQUEST']);
    expect(tooMany.data.issues).toEqual(viaTrpc.data.issues);
    const ok = await request(t.url).get('/api/v1/members?limit=1').set(bearer(token));
    expect(ok.status).toBe(200);
    expect(ok.body.items).toHaveLength(1);
    expect(ok.headers['cache-control']).toBe('no-store');
  });

  // Last: the policy holds every human session from here on. MCP takes tokens only, which the
  // MFA policy does not hold, so a session blocked by it can only be refused on /trpc and REST.
  it('a session without a second factor under policy all: MFA_REQUIRED, recorded as AccessDenied', async () => {
    const set = await call(t.url, 'POST', 'updateAccountSecurityPolicy', ownerMfa, {
      policy: 'all',
    });
    expect(set.status).toBe(200);
    const viewer = cookieAuth(viewerCookie);
    const trpc = fromHttp(await call(t.url, 'GET', 'members', viewer, { limit: 5 }));
    const rest = fromHttp(await request(t.url).get('/api/v1/members?limit=5').set(viewer));
    for (const refused of [trpc, rest]) {
      expect(refused).toMatchObject({
        status: 403,
        code: 'MFA_REQUIRED',
        data: { policy: 'all', sessionMfaVerified: false },
      });
    }
    const records = await Promise.all([trpc, rest].map((r) => recordOf(t, r.requestId)));
    expect(records.map(sameParts)).toEqual(
      Array(2).fill({
        type: 'AccessDenied',
        code: 'MFA_REQUIRED',
        lane: 'read',
        actor: expect.objectContaining({ kind: 'user', role: 'viewer' }),
        authMethod: 'session',
        tokenId: null,
      }),
    );
  });
});
