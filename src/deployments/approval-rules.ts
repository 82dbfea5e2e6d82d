import type { Principal } from '../kernel/request-context.js';
import type { ApprovalRule } from '../events/deployments.events.js';

/** Whether a service's rule turns this principal's deploy, rollback or restore into a request. */
export function approvalRequired(rule: ApprovalRule, principal: Principal): boolean {
  if (rule === 'agents') return principal.kind === 'agent';
  if (rule === 'all-but-admins') return principal.role !== 'owner' && principal.role !== 'admin';
  return false;
}
