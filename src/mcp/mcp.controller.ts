import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AccessService } from '../access/access.service.js';
import { AppError } from '../common/app-error.js';
import { markAuditTarget } from '../kernel/audit-attribution.js';
import { RouteAccess } from '../kernel/route-access.js';
import { MCP_ENDPOINT, MCP_ROUTE, requireBearer } from './mcp-endpoint.js';
import { McpSurface } from './mcp-surface.js';

/**
 * `/mcp`: the MCP server over Streamable HTTP, stateless. Every POST carries its bearer token and
 * is authenticated on its own, so a revoked token is refused on its next message; there is no
 * MCP session to hijack and nothing kept between requests. Tool calls then run the guard again
 * per procedure (see ToolRunner). Answers are JSON or, for calls that stream progress, SSE.
 */
@Controller('mcp')
@RouteAccess({ auth: 'per-procedure' })
export class McpController {
  constructor(
    private readonly access: AccessService,
    private readonly surface: McpSurface,
  ) {}

  @Post()
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    markAuditTarget(req, MCP_ROUTE);
    requireBearer(req);
    const caller = { ...(await this.access.authorize(MCP_ENDPOINT, req)), channel: 'mcp' as const };
    await this.surface.answer(caller, req, res);
  }

  /** No server-initiated stream and no session to end: a stateless server has neither. */
  @Get()
  stream(): never {
    throw postOnly();
  }

  @Delete()
  end(): never {
    throw postOnly();
  }
}

function postOnly(): AppError {
  return new AppError('METHOD_NOT_SUPPORTED', 'The MCP endpoint takes POST only (stateless)', {
    allow: 'POST',
  });
}
