import { IsIn, IsUUID, Matches } from 'class-validator';
import { DisplayName } from '../common/field-rules.js';
import { PROJECT_ROLES, type ProjectRole } from '../events/projects.events.js';

/** `[a-z0-9-]`, 1-40, starting with a letter or digit: it appears in addresses and on the CLI. */
export const ProjectId = () =>
  Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
    message: ({ property }) => `${property} is 1-40 lower-case letters, digits and -`,
  });

export class CreateProjectInput {
  @ProjectId()
  projectId!: string;

  @DisplayName()
  name!: string;
}

export class RenameProjectInput extends CreateProjectInput {}

export class ProjectGrantInput {
  @ProjectId()
  projectId!: string;

  @IsUUID()
  principalId!: string;

  @IsIn(PROJECT_ROLES)
  role!: ProjectRole;
}

export class ProjectRevokeInput {
  @ProjectId()
  projectId!: string;

  @IsUUID()
  principalId!: string;
}

export class MoveToProjectInput {
  @IsIn(['service', 'server'])
  kind!: 'service' | 'server';

  @IsUUID()
  resourceId!: string;

  @ProjectId()
  projectId!: string;
}

export class ProjectIdInput {
  @ProjectId()
  projectId!: string;
}
