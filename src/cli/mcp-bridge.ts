import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** See the service's PROGRESS_SETTLE_MS: the last progress lines must not share a read with the answer. */
const PROGRESS_SETTLE_MS = 25;

/** A tool that waits for a deployment may take this long; progress keeps it alive. */
const CALL_TIMEOUT_MS = 16 * 60 * 1000;

export interface BridgeTarget {
  url: string;
  token: string;
  version: string;
}

/**
 * `slipway mcp`: an MCP server on stdio that forwards every request to the service's `/mcp` with
 * the caller's bearer token. It holds no tools of its own: the list, the guard, plan before
 * command, validation and the audit trail are the service's, so stdio and HTTP cannot differ and
 * a revoked token stops working here on its next call. Progress notifications are passed back.
 */
export async function runMcpBridge(target: BridgeTarget): Promise<void> {
  const remote = new Client({ name: 'slipway-cli', version: target.version });
  await remote.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', target.url), {
      requestInit: { headers: { Authorization: `Bearer ${target.token}` } },
    }),
  );
  const local = new Server(
    { name: 'slipway', version: target.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: remote.getInstructions(),
    },
  );
  local.setRequestHandler(ListToolsRequestSchema, (r) => remote.listTools(r.params));
  local.setRequestHandler(CallToolRequestSchema, async (r, extra) => {
    const token = extra._meta?.progressToken;
    const { _meta: _ignored, ...params } = r.params;
    const sent: Promise<void>[] = [];
    const result = await remote.callTool(params as CallToolRequest['params'], undefined, {
      signal: extra.signal,
      timeout: CALL_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      onprogress:
        token === undefined
          ? undefined
          : (p) => {
              const notification = extra.sendNotification({
                method: 'notifications/progress',
                params: { ...p, progressToken: token },
              });
              sent.push(notification.catch(() => undefined));
            },
    });
    if (sent.length > 0) {
      await Promise.all(sent);
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_SETTLE_MS));
    }
    return result;
  });
  local.setRequestHandler(ListResourcesRequestSchema, (r) => remote.listResources(r.params));
  local.setRequestHandler(ListResourceTemplatesRequestSchema, (r) =>
    remote.listResourceTemplates(r.params),
  );
  local.setRequestHandler(ReadResourceRequestSchema, (r) => remote.readResource(r.params));
  local.setRequestHandler(ListPromptsRequestSchema, (r) => remote.listPrompts(r.params));
  local.setRequestHandler(GetPromptRequestSchema, (r) => remote.getPrompt(r.params));

  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
  });
  await local.connect(new StdioServerTransport());
  process.stdin.once('end', () => void local.close());
  await closed;
  await remote.close();
}
