import { describe, expect, it } from '@jest/globals';
import {
  AGENT_PRESETS,
  capabilitiesOf,
  NEVER_FOR_AGENTS,
  ROLE_CAPABILITIES,
} from './capabilities.js';
import { laneOfScopes, SCOPE_CATALOGUE } from '../kernel/scopes.js';

describe('capabilities', () => {
  it('gives owner and admin every scope, viewer only the read lane without audit', () => {
    expect(ROLE_CAPABILITIES.owner).toEqual(Object.keys(SCOPE_CATALOGUE));
    expect(ROLE_CAPABILITIES.viewer.every((s) => SCOPE_CATALOGUE[s].lane === 'read')).toBe(true);
    expect(ROLE_CAPABILITIES.viewer).not.toContain('audit:read');
  });

  it('lets operators deploy and decide approvals but not manage tokens, members or security', () => {
    const op = ROLE_CAPABILITIES.operator;
    expect(op).toEqual(
      expect.arrayContaining(['deploy:start', 'server:write', 'approvals:decide', 'deploy:plan']),
    );
    for (const s of ['tokens:manage', 'members:manage', 'security:manage', 'audit:read'] as const) {
      expect(op).not.toContain(s);
    }
  });

  it('never gives an agent token, member or security management, or approval decisions', () => {
    for (const preset of Object.keys(AGENT_PRESETS)) {
      const caps = capabilitiesOf({ kind: 'agent', role: 'agent', preset });
      for (const forbidden of NEVER_FOR_AGENTS) expect(caps).not.toContain(forbidden);
    }
    expect(
      capabilitiesOf({ kind: 'agent', role: 'agent', preset: 'agent:read-only' }).every(
        (s) => SCOPE_CATALOGUE[s].lane === 'read',
      ),
    ).toBe(true);
    expect(capabilitiesOf({ kind: 'agent', role: 'agent', preset: 'unknown' })).toEqual([]);
  });

  it('computes a lane from scopes: command beats planning beats read', () => {
    expect(laneOfScopes(['deploy:read'])).toBe('read');
    expect(laneOfScopes(['deploy:read', 'deploy:plan'])).toBe('planning');
    expect(laneOfScopes(['deploy:plan', 'deploy:start'])).toBe('command');
    expect(laneOfScopes([])).toBe('read');
  });
});
