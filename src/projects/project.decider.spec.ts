import { describe, it } from '@jest/globals';
import type { Caller, Ranked } from '../access/authority.js';
import { ROLE_CAPABILITIES } from '../access/capabilities.js';
import {
  ProjectCreated,
  ProjectRenamed,
  ProjectRoleGranted,
  ProjectRoleRevoked,
  ResourceMovedToProject,
} from '../events/projects.events.js';
import { given } from '../storage/testing/given.js';
import { placementDecider as placement } from './placement.decider.js';
import { projectDecider as project } from './project.decider.js';

const admin: Caller = { id: 'a', kind: 'user', role: 'admin', scopes: ROLE_CAPABILITIES.admin };
const operator: Ranked = { id: 'op', kind: 'user', role: 'operator' };
const created = ProjectCreated({ projectId: 'payments', name: 'Payments' });

describe('project decider', () => {
  it('creates a project once; the default project exists without being created', () => {
    given(project).when({ kind: 'create', projectId: 'payments', name: 'Payments' }).then(created);
    given(project, created)
      .when({ kind: 'create', projectId: 'payments', name: 'Again' })
      .thenRefused('CONFLICT');
    given(project)
      .when({ kind: 'create', projectId: 'default', name: 'Mine' })
      .thenRefused('CONFLICT');
    given(project)
      .when({ kind: 'rename', projectId: 'default', name: 'Main' })
      .then(ProjectRenamed({ projectId: 'default', name: 'Main', previous: 'Default' }));
  });

  it('grants a role once, changes it, and revokes it; unknown projects are refused', () => {
    const grant = { kind: 'grant' as const, projectId: 'payments', actor: admin, target: operator };
    given(project)
      .when({ ...grant, role: 'viewer' })
      .thenRefused('NOT_FOUND');
    const granted = ProjectRoleGranted({
      projectId: 'payments',
      principalId: 'op',
      role: 'operator',
      previous: null,
    });
    given(project, created)
      .when({ ...grant, role: 'operator' })
      .then(granted);
    given(project, created, granted)
      .when({ ...grant, role: 'operator' })
      .thenNothing();
    given(project, created, granted)
      .when({ ...grant, role: 'viewer' })
      .then(
        ProjectRoleGranted({
          projectId: 'payments',
          principalId: 'op',
          role: 'viewer',
          previous: 'operator',
        }),
      );
    given(project, created, granted)
      .when({ kind: 'revoke', projectId: 'payments', actor: admin, target: operator })
      .then(ProjectRoleRevoked({ projectId: 'payments', principalId: 'op', previous: 'operator' }));
  });

  it('refuses grants to team-wide roles, the wrong kind of role, and above the granter', () => {
    const grant = { kind: 'grant' as const, projectId: 'payments', actor: admin };
    given(project, created)
      .when({ ...grant, target: { id: 'b', kind: 'user', role: 'admin' }, role: 'viewer' })
      .thenRefused('CONFLICT', /every project/);
    given(project, created)
      .when({ ...grant, target: operator, role: 'agent' })
      .thenRefused('BAD_REQUEST');
    given(project, created)
      .when({
        ...grant,
        target: { id: 'g', kind: 'agent', role: 'agent', creatorRole: 'admin' },
        role: 'operator',
      })
      .thenRefused('BAD_REQUEST');
    const narrow: Caller = { ...admin, scopes: ['members:manage'] };
    given(project, created)
      .when({ ...grant, actor: narrow, target: operator, role: 'operator' })
      .thenRefused('FORBIDDEN', /exceed your access/);
    const agentOfOwner: Ranked = { id: 'g', kind: 'agent', role: 'agent', creatorRole: 'owner' };
    given(project, created)
      .when({ ...grant, target: agentOfOwner, role: 'agent' })
      .thenRefused('FORBIDDEN', /ranks above/);
  });
});

describe('placement decider', () => {
  const move = { kind: 'service' as const, resourceId: 's1', registeredIn: 'default' };
  it('moves a resource from where it was registered, then from where it was moved', () => {
    const moved = ResourceMovedToProject({
      kind: 'service',
      resourceId: 's1',
      from: 'default',
      to: 'payments',
    });
    given(placement)
      .when({ ...move, to: 'payments', targetExists: true })
      .then(moved);
    given(placement, moved)
      .when({ ...move, to: 'payments', targetExists: true })
      .thenNothing();
    given(placement, moved)
      .when({ ...move, to: 'default', targetExists: true })
      .then(
        ResourceMovedToProject({
          kind: 'service',
          resourceId: 's1',
          from: 'payments',
          to: 'default',
        }),
      );
  });

  it('refuses a project that does not exist', () => {
    given(placement)
      .when({ ...move, to: 'nowhere', targetExists: false })
      .thenRefused('NOT_FOUND');
  });
});
