import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { RpcModule } from '../rpc/rpc.module.js';
import { DeploymentWaiter } from './deployment-waiter.js';
import { McpController } from './mcp.controller.js';
import { McpSurface } from './mcp-surface.js';
import { PlanClaims } from './plan-claims.js';
import { Resources } from './resources.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolRunner } from './tool-runner.js';

/** The MCP surface: tools, resources and prompts generated from the procedure registry. */
@Module({
  imports: [AccessModule, AuditModule, RpcModule],
  controllers: [McpController],
  providers: [DeploymentWaiter, McpSurface, PlanClaims, Resources, ToolCatalog, ToolRunner],
})
export class McpModule {}
