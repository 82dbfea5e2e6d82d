import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { CreateProjectHandler, RenameProjectHandler } from './create-project.js';
import { MoveToProjectHandler } from './move-to-project.js';
import { GrantProjectRoleHandler, RevokeProjectRoleHandler } from './project-grants.js';
import { ProjectFacts } from './project-facts.js';
import { ProjectGrantsHandler, ProjectsHandler } from './projects.js';

/** Projects: what services and servers belong to, and who holds which role in each. */
@Module({
  imports: [AccessModule],
  providers: [
    CreateProjectHandler,
    RenameProjectHandler,
    GrantProjectRoleHandler,
    RevokeProjectRoleHandler,
    MoveToProjectHandler,
    ProjectsHandler,
    ProjectGrantsHandler,
    ProjectFacts,
  ],
  exports: [ProjectFacts],
})
export class ProjectsModule {}
