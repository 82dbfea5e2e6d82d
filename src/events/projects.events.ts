import { defineEvent } from '../eventstore/define-event.js';

/** The project that holds every service and server not placed in another one. */
export const DEFAULT_PROJECT = 'default';

/**
 * A role in one project. People get `admin`, `operator` or `viewer` (owners and team admins
 * reach every project by their team role); agents get `agent`, their preset still their ceiling.
 */
export const PROJECT_ROLES = ['admin', 'operator', 'viewer', 'agent'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** Stream `project-<projectId>`: a project and who may do what in it. */
export const ProjectCreated = defineEvent<{ projectId: string; name: string }>('ProjectCreated', 1);

export const ProjectRenamed = defineEvent<{ projectId: string; name: string; previous: string }>(
  'ProjectRenamed',
  1,
);

export const ProjectRoleGranted = defineEvent<{
  projectId: string;
  principalId: string;
  role: ProjectRole;
  /** The role the principal held in the project before, if any. */
  previous: ProjectRole | null;
}>('ProjectRoleGranted', 1);

export const ProjectRoleRevoked = defineEvent<{
  projectId: string;
  principalId: string;
  previous: ProjectRole;
}>('ProjectRoleRevoked', 1);

/**
 * Stream `placement-<kind>-<id>`: the resource moved to another project. Where a resource was
 * registered is in its registration event (`projectId`, absent: the default project).
 */
export const ResourceMovedToProject = defineEvent<{
  kind: 'service' | 'server';
  resourceId: string;
  from: string;
  to: string;
}>('ResourceMovedToProject', 1);

export const projectStream = (projectId: string) => `project-${projectId}`;
export const placementStream = (kind: 'service' | 'server', resourceId: string) =>
  `placement-${kind}-${resourceId}`;
