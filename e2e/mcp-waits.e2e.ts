import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { cookieAuth, signUp } from './support/identity.js';
import { readyService, runToSuccess } from './support/deployments.js';
import { agentToken, answer, mcpClient } from './support/mcp.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Waited {
  status: string;
  deploymentId: string;
  created: boolean;
  wait: { status: string; finished: boolean; next?: string };
}

/**
 * MCP as the official SDK's client uses it: a wait answers within the client's request timeout
 * and can be resumed, a retried command with the same plan never deploys twice, a tag alone is
 * read alike by the plan and the command, and the newest protocol version is spoken.
 */
describe('MCP: waits, retries, tags and the protocol version', () => {
  let t: TestApp;
  let serviceId: string;
  let agent: Client;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    const owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
    agent = await mcpClient(t.url, (await agentToken(t.url, owner, 'w', 'agent:full')).token);
  });
  afterAll(async () => {
    await agent?.close();
    await t?.close();
  });

  const plan = async (imageTag: string) =>
    answer<{
      planId: string;
      isReady: boolean;
      executeCommand: string;
      preflightChecks: { check: string; status: string }[];
    }>(await agent.callTool({ name: 'deploymentPlan', arguments: { serviceId, imageTag } }));

  it('speaks the newest protocol version of the SDK', () => {
    const transport = agent.transport as { protocolVersion?: string } | undefined;
    expect(transport?.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('reads a tag alone as a tag of the service’s image, in the plan and in the command', async () => {
    const planned = await plan('3.2.0');
    expect(planned.executeCommand).toContain('ghcr.io/acme/api:3.2.0');
    expect(planned.preflightChecks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(planned.isReady).toBe(true);
    const queued = answer<{ status: string; deploymentId: string }>(
      await agent.callTool({
        name: 'triggerDeploy',
        arguments: { serviceId, imageTag: '3.2.0', planId: planned.planId },
      }),
    );
    expect(queued.status).toBe('queued');
    await runToSuccess(t.app, queued.deploymentId, serviceId, 'ghcr.io/acme/api:3.2.0');
  });

  it('answers a wait within its limit, and a retry with the same plan waits on, deploying once', async () => {
    const { planId } = await plan('ghcr.io/acme/api:3.3.0');
    const args = {
      serviceId,
      imageTag: 'ghcr.io/acme/api:3.3.0',
      planId,
      wait: true,
      waitSeconds: 1,
    };
    // Nothing runs deployments here: it stays queued, and the wait says how to go on.
    const first = answer<Waited>(await agent.callTool({ name: 'triggerDeploy', arguments: args }));
    expect(first).toMatchObject({
      status: 'queued',
      created: true,
      wait: { status: 'queued', finished: false, next: expect.stringContaining('same planId') },
    });
    const waiting = agent.callTool({
      name: 'triggerDeploy',
      arguments: { ...args, waitSeconds: 30 },
    });
    await new Promise((r) => setTimeout(r, 300));
    await runToSuccess(t.app, first.deploymentId, serviceId, 'ghcr.io/acme/api:3.3.0');
    const second = answer<Waited>(await waiting);
    expect(second).toMatchObject({
      deploymentId: first.deploymentId,
      created: false,
      wait: { status: 'succeeded', finished: true },
    });
  });

  it('bounds waitSeconds, and offers it with a default under the SDK’s 60 s timeout', async () => {
    const tool = (await agent.listTools()).tools.find((x) => x.name === 'triggerDeploy')!;
    expect(tool.inputSchema.properties?.waitSeconds).toMatchObject({
      type: 'integer',
      minimum: 1,
      default: 45,
    });
    const { planId } = await plan('3.4.0');
    const refused = await agent.callTool({
      name: 'triggerDeploy',
      arguments: { serviceId, imageTag: '3.4.0', planId, wait: true, waitSeconds: 0 },
    });
    expect(refused.isError).toBe(true);
  });
});
