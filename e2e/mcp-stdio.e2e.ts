import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { DeploymentLogStore } from '../src/deployments/deployment-log-store.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { data, readyService, runToSuccess } from './support/deployments.js';
import { agentToken, answer, toolError } from './support/mcp.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const bin = fileURLToPath(new URL('../bin/slipway.js', import.meta.url));
const IMAGE = 'ghcr.io/acme/api:3.1.0';

/** `slipway mcp` as a client launches it: a subprocess speaking MCP on stdio (built CLI). */
async function stdioClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'slipway-e2e-stdio', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp'],
      env: { PATH: process.env.PATH ?? '', SLIPWAY_URL: url, SLIPWAY_TOKEN: token },
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('slipway mcp: stdio forwarded to the service with the token', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  let reader: Client;
  let writer: Client;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
    reader = await stdioClient(
      t.url,
      (await agentToken(t.url, owner, 'r', 'agent:read-only')).token,
    );
    writer = await stdioClient(t.url, (await agentToken(t.url, owner, 'w', 'agent:full')).token);
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
    await t.close();
  });

  it('lists the tools of each token and answers a read tool', async () => {
    const readNames = (await reader.listTools()).tools.map((tool) => tool.name);
    expect(readNames).toContain('recentDeployments');
    expect(readNames).not.toContain('triggerDeploy');
    const writeNames = (await writer.listTools()).tools.map((tool) => tool.name);
    expect(writeNames).toEqual(expect.arrayContaining(['deploymentPlan', 'triggerDeploy']));
    const inventory = answer<{ totals: unknown }>(
      await reader.callTool({ name: 'infrastructureInventory', arguments: {} }),
    );
    expect(inventory.totals).toBeDefined();
  });

  it('refuses a command without a plan; with one it waits, streaming logs as progress', async () => {
    expect(
      toolError(
        await writer.callTool({ name: 'triggerDeploy', arguments: { serviceId, imageTag: IMAGE } }),
      ).data,
    ).toMatchObject({ rule: 'plan-first', reason: 'missing' });
    const plan = answer<{ planId: string }>(
      await writer.callTool({ name: 'deploymentPlan', arguments: { serviceId, imageTag: IMAGE } }),
    );
    const progress: string[] = [];
    const waiting = writer.callTool(
      {
        name: 'triggerDeploy',
        arguments: { serviceId, imageTag: IMAGE, planId: plan.planId, wait: true },
      },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? ''), resetTimeoutOnProgress: true },
    );
    const deploymentId = await queuedDeployment(t, owner, serviceId);
    await t.app.get(DeploymentLogStore).append([
      {
        deploymentId,
        line: 1,
        step: 'pull',
        stream: 'stdout',
        text: 'pulling 3.1.0',
        at: new Date().toISOString(),
      },
      {
        deploymentId,
        line: 2,
        step: 'up',
        stream: 'stdout',
        text: 'api started',
        at: new Date().toISOString(),
      },
    ]);
    await runToSuccess(t.app, deploymentId, serviceId, IMAGE);
    const result = answer<{ status: string; wait: { status: string; finished: boolean } }>(
      await waiting,
    );
    expect(result).toMatchObject({
      status: 'queued',
      wait: { status: 'succeeded', finished: true },
    });
    expect(progress).toEqual(
      expect.arrayContaining(['[pull] pulling 3.1.0', '[up] api started', 'deployment succeeded']),
    );
  });

  it('offers read models as resources and prompts for common tasks', async () => {
    const uris = (await reader.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining(['slipway://deployments/recent', 'slipway://inventory']),
    );
    const recent = await reader.readResource({ uri: 'slipway://deployments/recent' });
    const items = (JSON.parse(textOf(recent)) as { items: { id: string }[] }).items;
    expect(items.length).toBe(1);
    const logs = await reader.readResource({ uri: `slipway://deployments/${items[0].id}/logs` });
    expect(textOf(logs)).toContain('api started');

    expect((await reader.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'investigate-failed-deployment',
    ]);
    const prompt = await writer.getPrompt({
      name: 'deploy-new-image-safely',
      arguments: { serviceId, imageTag: IMAGE },
    });
    expect(JSON.stringify(prompt.messages)).toContain('deploymentPlan');
    await expect(
      writer.getPrompt({
        name: 'deploy-new-image-safely',
        arguments: { serviceId: 'x', imageTag: IMAGE },
      }),
    ).rejects.toThrow(/serviceId/);
  });

  it('shows the calls on the audit trail as made through MCP', async () => {
    const trail = data<{ entries: { action: string; channel: string; actor: { kind: string } }[] }>(
      await call(t.url, 'GET', 'auditTrail', owner, { action: 'DeploymentTriggered', limit: 5 }),
    );
    expect(trail.entries[0]).toMatchObject({ channel: 'mcp', actor: { kind: 'agent' } });
  });

  it('refuses a token revoked in the middle of a session', async () => {
    const agent = await agentToken(t.url, owner, 'gone', 'agent:read-only');
    const client = await stdioClient(t.url, agent.token);
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
});

/** The text of a resource's first content. */
function textOf(resource: { contents: ({ text: string } | { blob: string })[] }): string {
  const [first] = resource.contents;
  return first && 'text' in first ? first.text : '';
}

/** The deployment the waiting call queued, as the API lists it. */
async function queuedDeployment(
  t: TestApp,
  owner: Record<string, string>,
  serviceId: string,
): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const page = data<{ items: { id: string; status: string }[] }>(
      await call(t.url, 'GET', 'recentDeployments', owner, { serviceId, status: 'queued' }),
    );
    if (page.items[0]) return page.items[0].id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no deployment was queued');
}
