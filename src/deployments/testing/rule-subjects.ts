import type { RuleSubject } from '../approval-rules.js';

/** Callers as an approval rule judges them, for the deciders' specs. */
const subject = (kind: 'user' | 'agent', role: 'owner' | 'admin' | 'operator' | 'agent') => ({
  principal: { id: `${role}-1`, kind, role, name: role },
  scopes: ['deploy:start', 'service:write'],
});

export const OWNER: RuleSubject = subject('user', 'owner');
export const ADMIN: RuleSubject = subject('user', 'admin');
export const OPERATOR: RuleSubject = subject('user', 'operator');
export const AGENT: RuleSubject = subject('agent', 'agent');
/** Slipway itself (a reaction, the runner): no rule holds it back. */
export const SYSTEM: RuleSubject = { principal: null, scopes: [] };
