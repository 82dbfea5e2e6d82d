import { AccessModule } from '../access/access.module.js';
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DiscoveredRoutes } from './openapi/discovered-routes.js';
import { OpenApiController } from './openapi/openapi.controller.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { DeploymentLogsController } from './deployment-logs.controller.js';
import { RunnerModule } from '../runner/runner.module.js';
import { ServersController } from './servers.controller.js';
import { ServicesController } from './services.controller.js';
import { MeController } from './me.controller.js';
import { MembersController } from './members.controller.js';
import { ProjectionStreamController } from './projection-stream.controller.js';

/** REST surfaces under /api/v1; each route declares its access like a procedure does. */
@Module({
  imports: [AccessModule, DeploymentsModule, RunnerModule, DiscoveryModule],
  providers: [DiscoveredRoutes],
  exports: [DiscoveredRoutes],
  controllers: [
    DeploymentLogsController,
    MeController,
    MembersController,
    OpenApiController,
    ProjectionStreamController,
    ServersController,
    ServicesController,
  ],
})
export class ApiV1Module {}
