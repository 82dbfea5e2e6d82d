import { describe, expect, it } from '@jest/globals';
import type { RoleMapping } from '../../events/sso.events.js';
import { mappedRole, mappingDecidesRoles } from './role-mapping.js';

const mapping: RoleMapping = {
  claim: 'groups',
  rules: [
    { value: 'devs', role: 'operator' },
    { value: 'platform', role: 'admin' },
    { value: 'support', role: 'viewer' },
  ],
  defaultRole: null,
};

describe('claim → role mapping', () => {
  it('gives the highest role among the rules the claim matches', () => {
    expect(mappedRole(mapping, { groups: ['support', 'devs'] })).toBe('operator');
    expect(mappedRole(mapping, { groups: ['devs', 'platform'] })).toBe('admin');
    expect(mappedRole(mapping, { groups: 'platform' })).toBe('admin');
  });

  it('falls back to the default, or to no role, when no rule matches', () => {
    expect(mappedRole(mapping, { groups: ['sales'] })).toBeNull();
    expect(mappedRole({ ...mapping, defaultRole: 'viewer' }, { groups: [] })).toBe('viewer');
    expect(mappedRole({ ...mapping, defaultRole: 'viewer' }, {})).toBe('viewer');
  });

  it('ignores values that are not strings, and never matches on a prefix', () => {
    expect(mappedRole(mapping, { groups: [{ name: 'platform' }, 7, null] })).toBeNull();
    expect(mappedRole(mapping, { groups: ['platform-x', 'dev'] })).toBeNull();
  });

  it('decides roles only when it reads a claim', () => {
    expect(mappingDecidesRoles(mapping)).toBe(true);
    expect(mappingDecidesRoles({ claim: null, rules: [], defaultRole: null })).toBe(false);
  });
});
