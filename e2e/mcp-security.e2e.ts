import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call, cookieAuth, signUp } from './support/identity.js';
import { data } from './support/deployments.js';
import { agentToken, mcpClient, toolError } from './support/mcp.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { DAY, TestClock } from './support/test-clock.js';

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

/** One raw JSON-RPC message to /mcp, as any HTTP client would send it. */
function post(url: string, headers: Record<string, string>, body: unknown = LIST) {
  return fetch(new URL('/mcp', url), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-06-18',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function refusal(res: Response) {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, code: body.error.code, message: body.error.message };
}

describe('MCP over HTTP: credentials and access', () => {
  const clock = new TestClock();
  let t: TestApp;
  let ownerCookie: string;
  let owner: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    ownerCookie = (await signUp(t.url, 'owner@example.com')).cookie;
    owner = cookieAuth(ownerCookie);
  });
  afterAll(async () => t.close());

  it('refuses a request without credentials, and an unknown token', async () => {
    const none = await post(t.url, {});
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="slipway"');
    expect(await refusal(none)).toMatchObject({ status: 401, code: 'AUTH_REQUIRED' });
    const unknown = await post(t.url, { Authorization: `Bearer slw_${'x'.repeat(49)}` });
    expect(await refusal(unknown)).toMatchObject({ status: 401, code: 'TOKEN_INVALID' });
  });

  it('refuses a session cookie: bearer tokens only', async () => {
    const res = await post(t.url, { Cookie: ownerCookie });
    const answer = await refusal(res);
    expect(answer).toMatchObject({ status: 401, code: 'AUTH_REQUIRED' });
    expect(answer.message).toMatch(/bearer tokens only/);
  });

  it('refuses GET and DELETE: the server is stateless', async () => {
    const res = await fetch(new URL('/mcp', t.url), { headers: { Accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('refuses an oversized message with 413 in the error shape', async () => {
    const { token } = await agentToken(t.url, owner, 'big', 'agent:read-only');
    const huge = JSON.stringify({ ...LIST, params: { pad: 'x'.repeat(1024 * 1024 + 10) } });
    const res = await post(t.url, { Authorization: `Bearer ${token}` }, huge);
    expect(await refusal(res)).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('refuses a tool outside the token’s scopes, naming required and granted scopes', async () => {
    const { token } = await agentToken(t.url, owner, 'viewer-bot', 'agent:read-only');
    const client = await mcpClient(t.url, token);
    try {
      const denied = toolError(
        await client.callTool({
          name: 'triggerDeploy',
          arguments: { serviceId: '00000000-0000-4000-8000-0000000000b1', imageTag: 'a/b:1' },
        }),
      );
      expect(denied).toMatchObject({
        code: 'FORBIDDEN',
        data: { requiredScopes: ['deploy:start'], missingScopes: ['deploy:start'] },
      });
    } finally {
      await client.close();
    }
  });

  it('holds an owner’s narrower token to its own scopes', async () => {
    const narrow = data<{ token: string }>(
      await call(t.url, 'POST', 'createToken', owner, {
        tokenName: 'read-only',
        scopes: ['deploy:read'],
        expiresInDays: 1,
      }),
    ).token;
    const client = await mcpClient(t.url, narrow);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('recentDeployments');
      expect(names).not.toContain('deploymentPlan');
      expect(names).not.toContain('createToken');
      expect(names).not.toContain('members');
      const denied = toolError(
        await client.callTool({
          name: 'createToken',
          arguments: { tokenName: 'wider', scopes: ['tokens:manage'] },
        }),
      );
      expect(denied).toMatchObject({ code: 'FORBIDDEN', data: { grantedScopes: ['deploy:read'] } });
    } finally {
      await client.close();
    }
  });

  it('refuses a token revoked in the middle of a session, on its next call', async () => {
    const agent = await agentToken(t.url, owner, 'revoked', 'agent:read-only');
    const client = await mcpClient(t.url, agent.token);
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      data(await call(t.url, 'POST', 'revokeToken', owner, { tokenId: agent.tokenId }));
      await expect(client.callTool({ name: 'recentDeployments', arguments: {} })).rejects.toThrow(
        /TOKEN_REVOKED/,
      );
    } finally {
      await client.close();
    }
  });

  it('records the refusals at the endpoint under POST /mcp with the mcp channel', async () => {
    const trail = data<{ entries: { resource: string; code: string; channel: string }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { resource: 'route:POST /mcp', limit: 50 }),
    );
    const codes = trail.entries.map((e) => e.code);
    expect(codes).toEqual(
      expect.arrayContaining(['AUTH_REQUIRED', 'TOKEN_INVALID', 'TOKEN_REVOKED']),
    );
    expect(trail.entries.every((e) => e.channel === 'mcp')).toBe(true);
  });

  it('refuses an expired token', async () => {
    const { token } = await agentToken(t.url, owner, 'short-lived', 'agent:read-only');
    clock.advance(8 * DAY);
    expect(await refusal(await post(t.url, { Authorization: `Bearer ${token}` }))).toMatchObject({
      status: 401,
      code: 'TOKEN_EXPIRED',
    });
  });
});
