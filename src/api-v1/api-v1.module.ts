import { MetricsController } from './metrics.controller.js';
import { AccessModule } from '../access/access.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { RunnerModule } from '../runner/runner.module.js';
import { DeployController } from './deploy.controller.js';
import { ServerImagesController } from './server-images.controller.js';
import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeployHooksModule } from '../deployments/hooks/deploy-hooks.module.js';
import { DeployHooksController } from './deploy-hooks.controller.js';
import { GitSourcesModule } from '../deployments/git/git-sources.module.js';
import { GitPushController } from './git-push.controller.js';
import { DiscoveryModule } from '@nestjs/core';
import { DiscoveredRoutes } from './openapi/discovered-routes.js';
import { OpenApiController } from './openapi/openapi.controller.js';
import { DeploymentLogsController } from './deployment-logs.controller.js';
import { JobRunLogsController } from './job-run-logs.controller.js';
import { ServersController } from './servers.controller.js';
import { ServicesController } from './services.controller.js';
import { MeController } from './me.controller.js';
import { MembersController } from './members.controller.js';
import { ProjectionStreamController } from './projection-stream.controller.js';
import { RpcModule } from '../rpc/rpc.module.js';

/** REST surfaces under /api/v1; each route declares its access like a procedure does. */
@Module({
  imports: [
    AccessModule,
    AuditModule,
    DeployHooksModule,
    GitSourcesModule,
    DeploymentsModule,
    RunnerModule,
    RpcModule,
    DiscoveryModule,
  ],
  providers: [DiscoveredRoutes],
  exports: [DiscoveredRoutes],
  controllers: [
    DeploymentLogsController,
    JobRunLogsController,
    MeController,
    MembersController,
    OpenApiController,
    ProjectionStreamController,
    ServersController,
    ServicesController,
    DeployHooksController,
    GitPushController,
    DeployController,
    ServerImagesController,
    MetricsController,
  ],
})
export class ApiV1Module {}
