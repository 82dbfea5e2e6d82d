import type { ICommandHandler } from '@nestjs/cqrs';
import { projectStream } from '../events/projects.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { CreateProjectInput, RenameProjectInput } from './project.input.js';
import { projectDecider } from './project.decider.js';

export class CreateProject extends ProcedureCommand<
  CreateProjectInput,
  { projectId: string; name: string }
> {}

@Procedure.command(CreateProject, {
  name: 'createProject',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: CreateProjectInput,
  description:
    'Creates a project: services and servers placed in it are reached by the people and agents granted a role in it (and by owners and admins).',
})
export class CreateProjectHandler implements ICommandHandler<CreateProject> {
  constructor(private readonly runner: DeciderRunner) {}

  async execute({ input, ctx }: CreateProject) {
    await this.runner.run(
      projectStream(input.projectId),
      projectDecider,
      { kind: 'create', projectId: input.projectId, name: input.name },
      ctx,
    );
    return { projectId: input.projectId, name: input.name };
  }
}

export class RenameProject extends ProcedureCommand<
  RenameProjectInput,
  { projectId: string; name: string; changed: boolean }
> {}

@Procedure.command(RenameProject, {
  name: 'renameProject',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: RenameProjectInput,
  description: 'Renames a project (its id stays).',
})
export class RenameProjectHandler implements ICommandHandler<RenameProject> {
  constructor(private readonly runner: DeciderRunner) {}

  async execute({ input, ctx }: RenameProject) {
    const decision = await this.runner.run(
      projectStream(input.projectId),
      projectDecider,
      { kind: 'rename', projectId: input.projectId, name: input.name },
      ctx,
    );
    return { projectId: input.projectId, name: input.name, changed: decision.events.length > 0 };
  }
}
