import {
  assertMayActOn,
  assertMayGrantRole,
  type Caller,
  type Ranked,
} from '../access/authority.js';
import { AppError, conflict, notFound } from '../common/app-error.js';
import {
  DEFAULT_PROJECT,
  ProjectCreated,
  ProjectRenamed,
  ProjectRoleGranted,
  ProjectRoleRevoked,
  type ProjectRole,
} from '../events/projects.events.js';
import type { Decider, EventLike } from '../storage/decider.js';

export interface ProjectState {
  created: boolean;
  name: string | null;
  grants: ReadonlyMap<string, ProjectRole>;
}

export type ProjectCommand =
  | { kind: 'create'; projectId: string; name: string }
  | { kind: 'rename'; projectId: string; name: string }
  | { kind: 'grant'; projectId: string; actor: Caller; target: Ranked; role: ProjectRole }
  | { kind: 'revoke'; projectId: string; actor: Caller; target: Ranked };

/** The default project exists without being created: it holds what was never placed. */
const exists = (state: ProjectState, projectId: string) =>
  projectId === DEFAULT_PROJECT || state.created;

const nameOf = (state: ProjectState, projectId: string) =>
  state.name ?? (projectId === DEFAULT_PROJECT ? 'Default' : projectId);

/** Owners and team admins reach every project by their team role: a grant would say nothing. */
function assertGrantable(target: Ranked, role: ProjectRole): void {
  if (target.kind === 'user' && (target.role === 'owner' || target.role === 'admin')) {
    throw conflict(`A team ${target.role} reaches every project already`);
  }
  if ((target.kind === 'agent') !== (role === 'agent')) {
    throw new AppError(
      'BAD_REQUEST',
      target.kind === 'agent'
        ? 'An agent is granted the role agent (its preset stays its ceiling)'
        : 'A person is granted admin, operator or viewer',
      { issues: [{ path: 'role', message: 'does not fit the principal' }] },
    );
  }
}

/**
 * Stream `project-<id>`: a project, its name and its grants. Nobody grants a role above their
 * own or wider than their credential (narrowing), nor grants to or revokes from a principal
 * ranked above them (rank).
 */
export const projectDecider: Decider<ProjectState, ProjectCommand> = {
  initialState: () => ({ created: false, name: null, grants: new Map() }),

  evolve(state, event: EventLike): ProjectState {
    switch (event.type) {
      case ProjectCreated.type:
        return { ...state, created: true, name: ProjectCreated.dataOf(event).name };
      case ProjectRenamed.type:
        return { ...state, name: ProjectRenamed.dataOf(event).name };
      case ProjectRoleGranted.type: {
        const d = ProjectRoleGranted.dataOf(event);
        return { ...state, grants: new Map(state.grants).set(d.principalId, d.role) };
      }
      case ProjectRoleRevoked.type: {
        const grants = new Map(state.grants);
        grants.delete(ProjectRoleRevoked.dataOf(event).principalId);
        return { ...state, grants };
      }
      default:
        return state;
    }
  },

  decide(command, state) {
    const { projectId } = command;
    if (command.kind === 'create') {
      if (exists(state, projectId)) throw conflict(`Project ${projectId} exists already`);
      return [ProjectCreated({ projectId, name: command.name })];
    }
    if (!exists(state, projectId)) throw notFound('No such project');
    switch (command.kind) {
      case 'rename': {
        const previous = nameOf(state, projectId);
        if (previous === command.name) return [];
        return [ProjectRenamed({ projectId, name: command.name, previous })];
      }
      case 'grant': {
        assertMayActOn(command.actor, command.target, 'grant a project role to');
        assertGrantable(command.target, command.role);
        if (command.role !== 'agent') assertMayGrantRole(command.actor, command.role);
        const previous = state.grants.get(command.target.id) ?? null;
        if (previous === command.role) return [];
        return [
          ProjectRoleGranted({
            projectId,
            principalId: command.target.id,
            role: command.role,
            previous,
          }),
        ];
      }
      case 'revoke': {
        assertMayActOn(command.actor, command.target, 'revoke a project role of');
        const previous = state.grants.get(command.target.id);
        if (!previous) return [];
        return [ProjectRoleRevoked({ projectId, principalId: command.target.id, previous })];
      }
    }
  },
};
