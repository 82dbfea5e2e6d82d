import { describe, expect, it } from '@jest/globals';
import { allows } from './access';
import type { AnswerOf } from './answers';

const caller = (role: string, scopes: string[], kind = 'user') =>
  ({
    principal: { id: 'p', kind, name: 'n', email: null, role, preset: null },
    scopes,
  }) as unknown as AnswerOf<'viewer'>;

describe('allows: the guard’s rule, from the contract, for showing a control', () => {
  it('Given a viewer, then no command of an operator is shown', () => {
    const viewer = caller('viewer', ['deploy:read', 'server:read']);
    expect(allows(viewer, 'recentDeployments')).toBe(true);
    expect(allows(viewer, 'triggerDeploy')).toBe(false);
    expect(allows(viewer, 'registerServer')).toBe(false);
  });

  it('Given an operator whose credential lacks a scope, then that control is not shown', () => {
    const narrowed = caller('operator', ['deploy:read', 'deploy:plan']);
    expect(allows(narrowed, 'deploymentPlan')).toBe(true);
    expect(allows(narrowed, 'triggerDeploy')).toBe(false);
  });

  it('Given an operator with the scope, then role still decides (approvals yes, members no)', () => {
    const operator = caller('operator', ['approvals:decide', 'members:manage']);
    expect(allows(operator, 'approveRequest')).toBe(true);
    expect(allows(operator, 'changeUserRole')).toBe(false);
    expect(allows(undefined, 'viewer')).toBe(false);
  });
});
