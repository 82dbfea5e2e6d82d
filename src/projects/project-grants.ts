import type { ICommandHandler } from '@nestjs/cqrs';
import { callerOf } from '../access/authority.js';
import { PrincipalLookup } from '../access/principal-lookup.js';
import { projectStream, type ProjectRole } from '../events/projects.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { ProjectGrantInput, ProjectRevokeInput } from './project.input.js';
import { projectDecider } from './project.decider.js';

export interface ProjectGrantAnswer {
  projectId: string;
  principalId: string;
  role: ProjectRole | null;
  changed: boolean;
}

export class GrantProjectRole extends ProcedureCommand<ProjectGrantInput, ProjectGrantAnswer> {}

@Procedure.command(GrantProjectRole, {
  name: 'grantProjectRole',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: ProjectGrantInput,
  description:
    'Gives a member (admin, operator or viewer) or an agent (agent) a role in one project; never above your own rank or wider than your credential.',
})
export class GrantProjectRoleHandler implements ICommandHandler<GrantProjectRole> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: PrincipalLookup,
  ) {}

  async execute({ input, ctx }: GrantProjectRole): Promise<ProjectGrantAnswer> {
    const target = await this.lookup.ranked(await this.lookup.principal(input.principalId));
    const decision = await this.runner.run(
      projectStream(input.projectId),
      projectDecider,
      { kind: 'grant', projectId: input.projectId, actor: callerOf(ctx), target, role: input.role },
      ctx,
    );
    return {
      projectId: input.projectId,
      principalId: input.principalId,
      role: input.role,
      changed: decision.events.length > 0,
    };
  }
}

export class RevokeProjectRole extends ProcedureCommand<ProjectRevokeInput, ProjectGrantAnswer> {}

@Procedure.command(RevokeProjectRole, {
  name: 'revokeProjectRole',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: ProjectRevokeInput,
  description:
    "Takes a principal's role in one project away (in the default project, its team role applies again).",
})
export class RevokeProjectRoleHandler implements ICommandHandler<RevokeProjectRole> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: PrincipalLookup,
  ) {}

  async execute({ input, ctx }: RevokeProjectRole): Promise<ProjectGrantAnswer> {
    const target = await this.lookup.ranked(await this.lookup.principal(input.principalId));
    const decision = await this.runner.run(
      projectStream(input.projectId),
      projectDecider,
      { kind: 'revoke', projectId: input.projectId, actor: callerOf(ctx), target },
      ctx,
    );
    return {
      projectId: input.projectId,
      principalId: input.principalId,
      role: null,
      changed: decision.events.length > 0,
    };
  }
}
