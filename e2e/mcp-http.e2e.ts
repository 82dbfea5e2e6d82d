import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { data, readyService } from './support/deployments.js';
import { agentToken, answer, mcpClient, toolError } from './support/mcp.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { MINUTE, TestClock } from './support/test-clock.js';

const IMAGE = 'ghcr.io/acme/api:2.0.0';

describe('MCP over Streamable HTTP: tools from the registry, held to the guard and to plan first', () => {
  const clock = new TestClock();
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let reader: Client;
  let writer: Client;
  let writerId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
    const readOnly = await agentToken(t.url, owner, 'reader', 'agent:read-only');
    const full = await agentToken(t.url, owner, 'writer', 'agent:full');
    writerId = full.principalId;
    reader = await mcpClient(t.url, readOnly.token);
    writer = await mcpClient(t.url, full.token);
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
    await t.close();
  });

  it('lists only the tools a token can use: a read-only agent sees read tools only', async () => {
    const readTools = (await reader.listTools()).tools;
    const names = readTools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['recentDeployments', 'infrastructureInventory']));
    expect(names).not.toContain('triggerDeploy');
    expect(names).not.toContain('deploymentPlan');
    expect(names).not.toContain('createToken');
    expect(readTools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);

    const writeTools = (await writer.listTools()).tools;
    const deploy = writeTools.find((tool) => tool.name === 'triggerDeploy');
    expect(deploy?.inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['serviceId', 'imageTag', 'planId']),
      additionalProperties: false,
    });
    expect(deploy?.description).toMatch(/deploymentPlan/);
    expect(writeTools.map((tool) => tool.name)).not.toContain('createToken');
  });

  it('answers a read tool', async () => {
    const result = answer<{ items: unknown[] }>(
      await reader.callTool({ name: 'recentDeployments', arguments: { limit: 5 } }),
    );
    expect(Array.isArray(result.items)).toBe(true);
  });

  it('refuses a command without a plan, and queues it with a fresh plan of the same input', async () => {
    const refused = toolError(
      await writer.callTool({ name: 'triggerDeploy', arguments: { serviceId, imageTag: IMAGE } }),
    );
    expect(refused).toMatchObject({ code: 'FORBIDDEN', data: { rule: 'plan-first' } });

    const plan = answer<{ isReady: boolean; planId: string | null }>(
      await writer.callTool({ name: 'deploymentPlan', arguments: { serviceId, imageTag: IMAGE } }),
    );
    expect(plan).toMatchObject({ isReady: true, planId: expect.stringMatching(/^pln_/) });

    const other = toolError(
      await writer.callTool({
        name: 'triggerDeploy',
        arguments: { serviceId, imageTag: 'ghcr.io/acme/api:9.9.9', planId: plan.planId },
      }),
    );
    expect(other.data).toMatchObject({ rule: 'plan-first', reason: 'other-input' });

    const queued = answer<{ status: string; deploymentId: string }>(
      await writer.callTool({
        name: 'triggerDeploy',
        arguments: {
          serviceId,
          imageTag: IMAGE,
          planId: plan.planId,
          reason: 'release 2.0 for the billing fix',
        },
      }),
    );
    expect(queued).toMatchObject({ status: 'queued', deploymentId: expect.any(String) });
  });

  it('refuses a stale plan id and a plan id of another principal', async () => {
    const plan = answer<{ planId: string }>(
      await writer.callTool({ name: 'deploymentPlan', arguments: { serviceId, imageTag: IMAGE } }),
    );
    const ownerToken = data<{ token: string }>(
      await call(t.url, 'POST', 'createToken', owner, {
        tokenName: 'owner-mcp',
        scopes: ['deploy:read', 'deploy:plan', 'deploy:start'],
        expiresInDays: 1,
      }),
    ).token;
    const ownerClient = await mcpClient(t.url, ownerToken);
    try {
      const foreign = toolError(
        await ownerClient.callTool({
          name: 'triggerDeploy',
          arguments: { serviceId, imageTag: IMAGE, planId: plan.planId },
        }),
      );
      expect(foreign.data).toMatchObject({ rule: 'plan-first', reason: 'foreign' });
      // A person's own token is not shown what only their signed-in session may do.
      const names = (await ownerClient.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['accountSecurityStatus', 'triggerDeploy']));
      for (const sessionOnly of ['startMfaEnrollment', 'confirmMfaEnrollment', 'disableMfa'])
        expect(names).not.toContain(sessionOnly);
    } finally {
      await ownerClient.close();
    }
    clock.advance(11 * MINUTE);
    const stale = toolError(
      await writer.callTool({
        name: 'triggerDeploy',
        arguments: { serviceId, imageTag: IMAGE, planId: plan.planId },
      }),
    );
    expect(stale).toMatchObject({ code: 'FORBIDDEN', data: { reason: 'stale' } });
    expect(stale.message).toMatch(/older than 10 minutes/);
  });

  it('answers invalid arguments with the validation issues, never a 500', async () => {
    const invalid = toolError(
      await writer.callTool({
        name: 'triggerDeploy',
        arguments: { serviceId: 'nope', imageTag: null, planId: 'pln_x', extra: 1 },
      }),
    );
    expect(invalid.code).toBe('BAD_REQUEST');
    const paths = (invalid.data.issues as { path: string }[]).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['serviceId', 'imageTag', 'extra']));
    const nullPlan = toolError(
      await writer.callTool({
        name: 'triggerDeploy',
        arguments: { serviceId, imageTag: IMAGE, planId: null },
      }),
    );
    expect(nullPlan).toMatchObject({ code: 'BAD_REQUEST', data: { issues: [{ path: 'planId' }] } });
  });

  it('records MCP calls on the audit trail with their channel', async () => {
    const trail = data<{
      entries: { action: string; resource: string; channel: string; actor: { id: string } }[];
    }>(await call(t.url, 'GET', 'auditTrail', owner, { actor: writerId, limit: 100 }));
    const mcp = trail.entries.filter((e) => e.channel === 'mcp');
    expect(mcp).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'DeploymentTriggered' }),
        expect.objectContaining({ action: 'AccessDenied', resource: 'procedure:triggerDeploy' }),
        expect.objectContaining({ action: 'CommandRejected', resource: 'procedure:triggerDeploy' }),
      ]),
    );
    const viaTrpc = data<{ entries: { channel: string }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { limit: 5, action: 'ServiceRegistered' }),
    );
    expect(viaTrpc.entries[0].channel).toBe('http');
  });
});
