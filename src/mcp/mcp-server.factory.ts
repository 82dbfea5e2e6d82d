import { Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
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
import type { Request } from 'express';
import type { RequestContext } from '../kernel/request-context.js';
import { serviceVersion } from '../common/version.js';
import type { ProgressSink } from './deployment-waiter.js';
import { getPrompt, promptsFor } from './prompts.js';
import { Resources } from './resources.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolRunner } from './tool-runner.js';

const INSTRUCTIONS =
  'Slipway deployment control plane. Tools are its procedures: read tools answer, planning tools ' +
  'preview without side effects, command tools change things. A command that has a plan ' +
  '(triggerDeploy ← deploymentPlan, executeRollback ← rollbackPlan) needs the planId of a ready ' +
  'plan you made for the same input within 10 minutes. Errors come back as {error:{code, ' +
  'message, data}}; BAD_REQUEST lists data.issues.';

/**
 * An MCP server for one authenticated caller (one HTTP request, stateless): its tools, resources
 * and prompts are the ones that caller may use; every call goes through the guard again.
 */
@Injectable()
export class McpServerFactory {
  constructor(
    private readonly catalog: ToolCatalog,
    private readonly runner: ToolRunner,
    private readonly resources: Resources,
  ) {}

  create(caller: RequestContext, req: Request): Server {
    const server = new Server(
      { name: 'slipway', version: serviceVersion() },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
        instructions: INSTRUCTIONS,
      },
    );
    const holds = (tool: string) => this.catalog.procedureFor(tool, caller) !== undefined;

    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.catalog.toolsFor(caller),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const procedure = this.catalog.procedureNamed(request.params.name);
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
      return this.runner.call(procedure, request.params.arguments, req, {
        progress,
        signal: extra.signal,
      });
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: this.resources.list(caller),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: this.resources.templates(caller),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      this.resources.read(request.params.uri, caller, req, extra.signal),
    );
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: promptsFor(holds) }));
    server.setRequestHandler(GetPromptRequestSchema, (request) =>
      getPrompt(request.params.name, request.params.arguments, holds),
    );
    return server;
  }
}
