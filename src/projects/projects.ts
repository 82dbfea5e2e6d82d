import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { ProjectDoc, ProjectGrantDoc } from '../../projections/projects.projection.js';
import { DEFAULT_PROJECT, type ProjectRole } from '../events/projects.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureQuery } from '../kernel/procedure-message.js';
import { ADMINS, EVERYONE, type Role } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { ProjectIdInput } from './project.input.js';
import { ProjectStandings } from '../access/project-standings.js';
import { roleInProject } from '../access/authority.js';

export interface ProjectView {
  projectId: string;
  name: string;
  /** The caller's role in it. */
  role: Role | null;
  createdAt: string | null;
}

/** Projects are few: listed whole, up to this many. */
const MAX_PROJECTS = 1000;

export class Projects extends ProcedureQuery<undefined, { items: ProjectView[] }> {}

@Procedure.read(Projects, {
  name: 'projects',
  roles: EVERYONE,
  scopes: ['service:read'],
  description:
    'The projects you reach (owners and admins: all), with your role in each; the default project first.',
  ownOnly: true,
})
export class ProjectsHandler implements IQueryHandler<Projects> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly standings: ProjectStandings,
  ) {}

  async execute({ ctx }: Projects): Promise<{ items: ProjectView[] }> {
    const standing = await this.standings.of(ctx);
    const { items } = await this.reads
      .collection<ProjectDoc>('projects')
      .find({}, { sort: { id: 1 }, limit: MAX_PROJECTS });
    const named = new Map(items.map((d) => [d.id, d]));
    const ids = [DEFAULT_PROJECT, ...items.map((d) => d.id).filter((id) => id !== DEFAULT_PROJECT)];
    const views = ids.map((projectId) => ({
      projectId,
      name: named.get(projectId)?.name ?? (projectId === DEFAULT_PROJECT ? 'Default' : projectId),
      role: roleInProject(standing, projectId),
      createdAt: named.get(projectId)?.createdAt ?? null,
    }));
    const reachable = views.filter(
      (v) =>
        v.role !== null &&
        (!standing.tokenProjects || standing.tokenProjects.includes(v.projectId)),
    );
    return { items: reachable };
  }
}

export interface ProjectGrantView {
  principalId: string;
  role: ProjectRole;
  grantedAt: string;
  grantedBy: string | null;
}

export class ProjectGrants extends ProcedureQuery<ProjectIdInput, { items: ProjectGrantView[] }> {}

@Procedure.read(ProjectGrants, {
  name: 'projectGrants',
  roles: ADMINS,
  scopes: ['members:read'],
  input: ProjectIdInput,
  description:
    'Who holds a role in a project, and which (owners and team admins hold theirs everywhere).',
})
export class ProjectGrantsHandler implements IQueryHandler<ProjectGrants> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ input }: ProjectGrants): Promise<{ items: ProjectGrantView[] }> {
    const { items } = await this.reads
      .collection<ProjectGrantDoc>('project_grants')
      .find({ projectId: input.projectId }, { sort: { principalId: 1 }, limit: 1000 });
    return {
      items: items.map((g) => ({
        principalId: g.principalId,
        role: g.role,
        grantedAt: g.grantedAt,
        grantedBy: g.grantedBy,
      })),
    };
  }
}
