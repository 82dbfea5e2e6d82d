import { describe, expect, it } from '@jest/globals';
import { ROLES } from '../kernel/roles.js';
import type { ApprovalRule } from '../events/deployments.events.js';
import { approvalRequired, atLeastAsStrict } from './approval-rules.js';

const RULES: ApprovalRule[] = ['none', 'agents', 'all-but-admins'];
/** Every principal Slipway acts for: users, agents (role agent), and hooks (an agent, operator). */
const PRINCIPALS = [
  ...ROLES.filter((r) => r !== 'agent').map((role) => ({ kind: 'user' as const, role })),
  { kind: 'agent' as const, role: 'agent' as const },
  { kind: 'agent' as const, role: 'operator' as const },
];

describe('approval rules, from the least to the most strict', () => {
  it('a rule at least as strict as another holds back everyone the other does', () => {
    for (const current of RULES)
      for (const next of RULES.filter((r) => atLeastAsStrict(r, current)))
        for (const p of PRINCIPALS)
          if (approvalRequired(current, p))
            expect([next, p, approvalRequired(next, p)]).toEqual([next, p, true]);
  });

  it('a weaker rule lets through someone the stricter one holds back', () => {
    expect(atLeastAsStrict('agents', 'all-but-admins')).toBe(false);
    expect(approvalRequired('all-but-admins', { kind: 'user', role: 'operator' })).toBe(true);
    expect(approvalRequired('agents', { kind: 'user', role: 'operator' })).toBe(false);
    expect(atLeastAsStrict('none', 'agents')).toBe(false);
  });
});
