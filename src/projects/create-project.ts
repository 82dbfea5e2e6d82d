import { projectStream } from '../events/projects.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { decides } from '../storage/deciding-handler.js';
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
export class CreateProjectHandler extends decides(projectDecider).on(
  CreateProject,
  ({ input }) => ({
    stream: projectStream(input.projectId),
    command: { kind: 'create', projectId: input.projectId, name: input.name },
    answer: () => ({ projectId: input.projectId, name: input.name }),
  }),
) {}

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
export class RenameProjectHandler extends decides(projectDecider).on(
  RenameProject,
  ({ input }) => ({
    stream: projectStream(input.projectId),
    command: { kind: 'rename', projectId: input.projectId, name: input.name },
    answer: (decision) => ({
      projectId: input.projectId,
      name: input.name,
      changed: decision.events.length > 0,
    }),
  }),
) {}
