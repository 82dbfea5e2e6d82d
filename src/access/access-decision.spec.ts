import { describe, expect, it } from '@jest/globals';
import { AppError } from '../common/app-error.js';
import { decideAccess } from './access-decision.js';
import type { Principal } from '../kernel/request-context.js';

const operator: Principal = { id: 'p1', kind: 'user', role: 'operator', name: 'Op' };
const procedure = {
  name: 'triggerDeploy',
  roles: ['owner' as const, 'operator' as const],
  scopes: ['deploy:start' as const],
};

function denial(fn: () => void): AppError {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a denial');
}

describe('decideAccess', () => {
  it('allows an allowed role whose effective scopes include the required ones', () => {
    expect(() => decideAccess(procedure, operator, ['deploy:read', 'deploy:start'])).not.toThrow();
  });

  it('denies a missing scope, listing required and granted scopes', () => {
    const error = denial(() => decideAccess(procedure, operator, ['deploy:read']));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.data).toMatchObject({
      requiredScopes: ['deploy:start'],
      grantedScopes: ['deploy:read'],
      missingScopes: ['deploy:start'],
    });
  });

  it('denies a role that is not allowed even when the scopes would be', () => {
    const viewer: Principal = { ...operator, role: 'viewer' };
    const error = denial(() => decideAccess(procedure, viewer, ['deploy:start']));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.data).toMatchObject({ requiredScopes: ['deploy:start'], role: 'viewer' });
  });
});
