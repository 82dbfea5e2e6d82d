import { AccessModule } from '../access/access.module.js';
import { Module } from '@nestjs/common';
import { MeController } from './me.controller.js';
import { MembersController } from './members.controller.js';
import { ProjectionStreamController } from './projection-stream.controller.js';

/** REST surfaces under /api/v1; each route declares its access like a procedure does. */
@Module({
  imports: [AccessModule],
  controllers: [MeController, MembersController, ProjectionStreamController],
})
export class ApiV1Module {}
