import { AccessModule } from '../access/access.module.js';
import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeployHooksModule } from '../deployments/hooks/deploy-hooks.module.js';
import { DeployHooksController } from './deploy-hooks.controller.js';
import { MeController } from './me.controller.js';
import { MembersController } from './members.controller.js';
import { ProjectionStreamController } from './projection-stream.controller.js';

/** REST surfaces under /api/v1; each route declares its access like a procedure does. */
@Module({
  imports: [AccessModule, AuditModule, DeployHooksModule],
  controllers: [MeController, MembersController, ProjectionStreamController, DeployHooksController],
})
export class ApiV1Module {}
