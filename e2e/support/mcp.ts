import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { call } from './identity.js';
import { data } from './deployments.js';

/** The SDK's own client on the service's Streamable HTTP endpoint, with a bearer token. */
export async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'slipway-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

export type ToolError = { error: { code: string; message: string; data: Record<string, unknown> } };

/** A tool's answer: the structured JSON, or a test failure naming the error. */
export function answer<T = Record<string, unknown>>(result: unknown): T {
  const r = result as CallToolResult;
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.structuredContent)}`);
  return JSON.parse((r.content[0] as { text: string }).text) as T;
}

/** A tool's error in the documented shape, or a test failure if it answered. */
export function toolError(result: unknown): ToolError['error'] {
  const r = result as CallToolResult;
  if (!r.isError) throw new Error(`expected an error, got ${JSON.stringify(r.content)}`);
  return (r.structuredContent as ToolError).error;
}

/** An agent with a preset and a token for it, made by the owner over /trpc. */
export async function agentToken(
  url: string,
  owner: Record<string, string>,
  name: string,
  preset: string,
): Promise<{ principalId: string; token: string; tokenId: string }> {
  const agent = data<{ principalId: string }>(
    await call(url, 'POST', 'createAgent', owner, { name, preset }),
  );
  const minted = data<{ token: string; tokenId: string }>(
    await call(url, 'POST', 'generateAgentToken', owner, {
      principalId: agent.principalId,
      tokenName: name,
      expiresInDays: 7,
    }),
  );
  return { principalId: agent.principalId, ...minted };
}
