import { describe, expect, it } from '@jest/globals';
import { AppError } from '../common/app-error.js';
import {
  assertMayActOn,
  assertMayGrantRole,
  assertMayReceiveTokenOf,
  assertWithinEffective,
  rankRole,
  scopesOfPreset,
  type Caller,
  type Ranked,
} from './authority.js';
import { ROLE_CAPABILITIES } from './capabilities.js';
import { ALL_SCOPES } from '../kernel/scopes.js';

type HumanRole = keyof typeof ROLE_CAPABILITIES;
const human = (id: string, role: HumanRole): Ranked => ({ id, kind: 'user', role });
const session = (id: string, role: HumanRole): Caller => ({
  ...human(id, role),
  scopes: ROLE_CAPABILITIES[role],
});
const agentOf = (id: string, creatorRole: string | null): Ranked => ({
  id,
  kind: 'agent',
  role: 'agent',
  creatorRole,
});

function refusal(fn: () => void): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('rank', () => {
  const roles: HumanRole[] = ['viewer', 'operator', 'admin', 'owner'];

  it('lets a caller act on principals of its own rank or below, never above', () => {
    for (const [i, callerRole] of roles.entries()) {
      for (const [j, targetRole] of roles.entries()) {
        const act = () =>
          assertMayActOn(session('c', callerRole), human('t', targetRole), 'revoke');
        if (j <= i) expect(act).not.toThrow();
        else expect(act).toThrow(`${targetRole} ranks above ${callerRole}`);
      }
    }
  });

  it('ranks an agent as its creator, and an agent with no known creator as an owner', () => {
    expect(rankRole(agentOf('b', 'admin'))).toBe('admin');
    expect(() => assertMayActOn(session('a', 'admin'), agentOf('b', 'admin'), 'x')).not.toThrow();
    expect(() => assertMayActOn(session('a', 'admin'), agentOf('b', 'owner'), 'x')).toThrow(
      /agent created by an owner: owner ranks above admin/,
    );
    expect(() => assertMayActOn(session('a', 'admin'), agentOf('b', null), 'x')).toThrow(
      /creator is unknown/,
    );
    expect(() => assertMayActOn(session('o', 'owner'), agentOf('b', null), 'x')).not.toThrow();
  });

  it('ranks an agent caller lowest when its creator is not known (fail closed)', () => {
    const bot: Caller = { ...agentOf('b', null), scopes: ALL_SCOPES };
    expect(() => assertMayActOn(bot, human('v', 'viewer'), 'x')).toThrow(/ranks above/);
  });

  it('always lets a principal act on itself', () => {
    expect(() => assertMayActOn(session('a', 'viewer'), human('a', 'viewer'), 'x')).not.toThrow();
  });

  it('refuses with FORBIDDEN, the caller’s scopes and both ranks', () => {
    const error = refusal(() =>
      assertMayActOn(session('a', 'admin'), human('o', 'owner'), 'revoke a token of'),
    );
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toBe('You cannot revoke a token of an owner: owner ranks above admin');
    expect(error.data).toEqual({
      requiredScopes: [],
      grantedScopes: [...ALL_SCOPES].sort(),
      rule: 'rank',
      rank: 'admin',
      targetRank: 'owner',
    });
  });
});

describe('token values', () => {
  it('go to the token’s own principal', () => {
    expect(() => assertMayReceiveTokenOf(session('o', 'owner'), human('o', 'owner'))).not.toThrow();
  });

  it('never go to another human, whatever the ranks', () => {
    for (const target of ['owner', 'admin', 'viewer'] as const) {
      const error = refusal(() =>
        assertMayReceiveTokenOf(session('o', 'owner'), human('t', target)),
      );
      expect([error.code, error.data.rule]).toEqual(['FORBIDDEN', 'token-owner']);
    }
  });

  it('go, for an agent, to an owner or admin ranked at least as its creator', () => {
    expect(() =>
      assertMayReceiveTokenOf(session('a', 'admin'), agentOf('b', 'admin')),
    ).not.toThrow();
    expect(() =>
      assertMayReceiveTokenOf(session('o', 'owner'), agentOf('b', 'admin')),
    ).not.toThrow();
    expect(() => assertMayReceiveTokenOf(session('a', 'admin'), agentOf('b', 'owner'))).toThrow(
      /owner ranks above admin/,
    );
    expect(() =>
      assertMayReceiveTokenOf(session('op', 'operator'), agentOf('b', 'viewer')),
    ).toThrow(/Only an owner or admin/);
  });
});

describe('narrowing', () => {
  it('accepts anything within the effective scopes', () => {
    expect(() =>
      assertWithinEffective({ scopes: ['deploy:read', 'tokens:manage'] }, ['deploy:read'], 'x'),
    ).not.toThrow();
  });

  it('refuses (never trims) anything wider, listing required, granted and refused scopes', () => {
    const error = refusal(() =>
      assertWithinEffective(
        { scopes: ['tokens:manage'] },
        ['audit:read', 'members:manage', 'tokens:manage', 'audit:read'],
        'The token',
      ),
    );
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toMatch(/^The token would exceed your access/);
    expect(error.data).toEqual({
      requiredScopes: ['audit:read', 'members:manage', 'tokens:manage'],
      grantedScopes: ['tokens:manage'],
      refusedScopes: ['audit:read', 'members:manage'],
      rule: 'narrowing',
    });
  });

  it('measures an agent preset by the scopes an agent with it can hold', () => {
    const full = scopesOfPreset('agent:full');
    expect(full).toContain('deploy:start');
    expect(() => assertWithinEffective({ scopes: ['tokens:manage'] }, full, 'x')).toThrow(
      /deploy:start/,
    );
    expect(() => assertWithinEffective({ scopes: ALL_SCOPES }, full, 'x')).not.toThrow();
  });

  it('grants a role only within the granter’s rank and effective scopes', () => {
    expect(() => assertMayGrantRole(session('a', 'admin'), 'admin')).not.toThrow();
    expect(() => assertMayGrantRole(session('a', 'admin'), 'owner')).toThrow(/above your own/);
    const narrowOwner: Caller = { ...human('o', 'owner'), scopes: ['members:manage'] };
    const error = refusal(() => assertMayGrantRole(narrowOwner, 'operator'));
    expect(error.data).toMatchObject({ rule: 'narrowing', grantedScopes: ['members:manage'] });
    expect(error.data.refusedScopes).toContain('deploy:start');
  });
});
