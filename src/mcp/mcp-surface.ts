import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { RequestContext } from '../kernel/request-context.js';
import { Resources } from './resources.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolRunner } from './tool-runner.js';

type McpServerModule = typeof import('./mcp-server.factory.js');

/** Loaded once, on the first request to `/mcp`; every later request reuses it. */
let serverModule: Promise<McpServerModule> | undefined;

/**
 * The MCP server behind `/mcp`. The MCP SDK (and zod with it, ~8 MB resident) is imported on
 * the first request rather than at start: most control planes never see an agent.
 */
@Injectable()
export class McpSurface {
  constructor(
    private readonly catalog: ToolCatalog,
    private readonly runner: ToolRunner,
    private readonly resources: Resources,
  ) {}

  async answer(caller: RequestContext, req: Request, res: Response): Promise<void> {
    serverModule ??= import('./mcp-server.factory.js');
    const { serveMcpRequest } = await serverModule;
    const { catalog, runner, resources } = this;
    await serveMcpRequest({ catalog, runner, resources }, caller, req, res);
  }
}
