import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import type { RequestContext } from '../kernel/request-context.js';
import { serviceVersion } from '../common/version.js';
import type { ProgressSink } from './deployment-waiter.js';
import { getPrompt, promptsFor } from './prompts.js';
import type { Resources } from './resources.js';
import type { ToolCatalog } from './tool-catalog.js';
import type { ToolRunner } from './tool-runner.js';

const INSTRUCTIONS =
  'Slipway deployment control plane. Tools are its procedures: read tools answer, planning tools ' +
  'preview without side effects, command tools change things. A command that has a plan ' +
  '(triggerDeploy ← deploymentPlan, executeRollback ← rollbackPlan) needs the planId of a ready ' +
  'plan you made for the same input within 10 minutes. Errors come back as {error:{code, ' +
  'message, data}}; BAD_REQUEST lists data.issues.';

/** What the MCP server answers with: the Nest providers of `McpModule`. */
export interface McpParts {
  catalog: ToolCatalog;
  runner: ToolRunner;
  resources: Resources;
}

/**
 * Answers one POST to `/mcp` (stateless: a server and a transport per request, closed with it).
 * This file holds every runtime import of the MCP SDK, so `McpSurface` loads it on the first
 * request rather than at start.
 */
export async function serveMcpRequest(
  parts: McpParts,
  caller: RequestContext,
  req: Request,
  res: Response,
): Promise<void> {
  const server = createMcpServer(parts, caller, req);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  res.setHeader('Cache-Control', 'no-store');
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/**
 * An MCP server for one authenticated caller (one HTTP request, stateless): its tools, resources
 * and prompts are the ones that caller may use; every call goes through the guard again.
 */
function createMcpServer(parts: McpParts, caller: RequestContext, req: Request): Server {
  const { catalog, runner, resources } = parts;
  const server = new Server(
    { name: 'slipway', version: serviceVersion() },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: INSTRUCTIONS,
    },
  );
  const holds = (tool: string) => catalog.procedureFor(tool, caller) !== undefined;

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: catalog.toolsFor(caller),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const procedure = catalog.procedureNamed(request.params.name);
    if (!procedure) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${request.params.name.slice(0, 64)}`,
      );
    }
    const token = extra._meta?.progressToken;
    const progress: ProgressSink | null =
      token === undefined
        ? null
        : (value, message) =>
            extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: value, message },
            });
    return runner.call(procedure, request.params.arguments, req, {
      progress,
      signal: extra.signal,
    });
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.list(caller),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: resources.templates(caller),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    resources.read(request.params.uri, caller, req, extra.signal),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: promptsFor(holds) }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(request.params.name, request.params.arguments, holds),
  );
  return server;
}
