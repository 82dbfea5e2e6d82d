import { describe, expect, it } from '@jest/globals';
import {
  assertReachesTeam,
  highestProjectRole,
  projectAccess,
  readableProjects,
  roleInProject,
  type ProjectStanding,
} from './authority.js';

const member = (over: Partial<ProjectStanding> = {}): ProjectStanding => ({
  kind: 'user',
  role: 'viewer',
  grants: {},
  tokenProjects: null,
  tokenScopes: null,
  ...over,
});

describe('access per project (authority.ts)', () => {
  it('keeps a token limited to projects out of calls on the team as a whole', () => {
    expect(() => assertReachesTeam('auditTrail', null, ['audit:read'])).not.toThrow();
    expect(() => assertReachesTeam('auditTrail', ['search'], ['audit:read'])).toThrow(
      expect.objectContaining({
        code: 'FORBIDDEN',
        data: expect.objectContaining({ rule: 'token-projects', tokenProjects: ['search'] }),
      }),
    );
  });

  it('gives owners and team admins their role in every project', () => {
    for (const role of ['owner', 'admin'] as const) {
      expect(roleInProject(member({ role }), 'payments')).toBe(role);
      expect(readableProjects(member({ role }))).toBeNull();
    }
  });

  it('gives everyone else their grant in a project, and their team role in the default one', () => {
    const op = member({ role: 'operator', grants: { payments: 'viewer' } });
    expect(roleInProject(op, 'default')).toBe('operator');
    expect(roleInProject(op, 'payments')).toBe('viewer');
    expect(roleInProject(op, 'search')).toBeNull();
    expect(readableProjects(op)).toEqual(['default', 'payments']);
    const raised = member({ role: 'viewer', grants: { payments: 'operator', default: 'viewer' } });
    expect(roleInProject(raised, 'payments')).toBe('operator');
    expect(highestProjectRole(raised)).toBe('operator');
  });

  it('judges the call with the capabilities of the role in that project, narrowed by the token', () => {
    const op = member({ role: 'viewer', grants: { payments: 'operator' } });
    expect(projectAccess(op, 'payments').scopes).toContain('deploy:start');
    expect(projectAccess(op, 'default').scopes).not.toContain('deploy:start');
    const token = { ...op, tokenScopes: ['deploy:read', 'deploy:start', 'members:manage'] };
    expect(projectAccess(token, 'payments').scopes.sort()).toEqual(['deploy:read', 'deploy:start']);
  });

  it('refuses a project without a role, and a token limited to other projects', () => {
    const op = member({ role: 'operator', grants: { payments: 'operator' } });
    expect(() => projectAccess(op, 'search')).toThrow(/no role in project search/);
    const limited = { ...op, tokenProjects: ['payments'], tokenScopes: ['deploy:read'] };
    expect(() => projectAccess(limited, 'default')).toThrow(/limited to projects/);
    expect(projectAccess(limited, 'payments').role).toBe('operator');
    expect(readableProjects(limited)).toEqual(['payments']);
    const owner = member({ role: 'owner', tokenProjects: ['search'], tokenScopes: [] });
    expect(readableProjects(owner)).toEqual(['search']);
  });

  it('lets an agent into the projects it is granted, its preset still its ceiling', () => {
    const agent = member({
      kind: 'agent',
      role: 'agent',
      preset: 'agent:read-only',
      grants: { payments: 'agent' },
    });
    expect(projectAccess(agent, 'payments').scopes).not.toContain('deploy:start');
    expect(projectAccess(agent, 'payments').scopes).toContain('deploy:read');
    expect(roleInProject(agent, 'search')).toBeNull();
    expect(roleInProject(agent, 'default')).toBe('agent');
  });
});
