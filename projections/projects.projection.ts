import {
  ProjectCreated,
  ProjectRenamed,
  ProjectRoleGranted,
  ProjectRoleRevoked,
  type ProjectRole,
} from '../src/events/projects.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `projects`: `{id: projectId, name, createdAt, createdBy}` for each project created (the
 * `default` project has a document only once renamed). `project_grants`:
 * `{id: "<projectId>/<principalId>", projectId, principalId, role, grantedAt, grantedBy}`, one per
 * principal with a role in a project.
 */
export interface ProjectDoc extends Doc {
  name: string;
  createdAt: string;
  createdBy: string | null;
}

export interface ProjectGrantDoc extends Doc {
  projectId: string;
  principalId: string;
  role: ProjectRole;
  grantedAt: string;
  grantedBy: string | null;
}

const grantId = (e: { data: { projectId: string; principalId: string } }) =>
  `${e.data.projectId}/${e.data.principalId}`;

export const projectsProjection: Projection = {
  name: 'projects',
  version: 1,
  collections: [
    { name: 'projects', indexes: [{ fields: ['name'] }] },
    { name: 'project_grants', indexes: [{ fields: ['principalId'] }, { fields: ['projectId'] }] },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof ProjectCreated>, ProjectDoc>(ProjectCreated, {
      collection: 'projects',
      documentId: (e) => e.data.projectId,
      evolve: (_c, { data, metadata, recordedAt }) => ({
        id: data.projectId,
        name: data.name,
        createdAt: recordedAt,
        createdBy: metadata.actor.principalId,
      }),
    }),
    on<EventDataOf<typeof ProjectRenamed>, ProjectDoc>(ProjectRenamed, {
      collection: 'projects',
      documentId: (e) => e.data.projectId,
      evolve: (c, { data, recordedAt }) => ({
        id: data.projectId,
        name: data.name,
        createdAt: c?.createdAt ?? recordedAt,
        createdBy: c?.createdBy ?? null,
      }),
    }),
    on<EventDataOf<typeof ProjectRoleGranted>, ProjectGrantDoc>(ProjectRoleGranted, {
      collection: 'project_grants',
      documentId: grantId,
      evolve: (_c, { data, metadata, recordedAt }) => ({
        id: `${data.projectId}/${data.principalId}`,
        projectId: data.projectId,
        principalId: data.principalId,
        role: data.role,
        grantedAt: recordedAt,
        grantedBy: metadata.actor.principalId,
      }),
    }),
    on<EventDataOf<typeof ProjectRoleRevoked>, ProjectGrantDoc>(ProjectRoleRevoked, {
      collection: 'project_grants',
      documentId: grantId,
      evolve: () => null,
    }),
  ),
};
