import { AppError } from '../common/app-error.js';
import type { Principal, RequestContext } from '../kernel/request-context.js';
import type { ApprovalRule } from '../events/deployments.events.js';

/** Whether a service's rule turns this principal's deploy, rollback or restore into a request. */
export function approvalRequired(
  rule: ApprovalRule,
  principal: Pick<Principal, 'kind' | 'role'>,
): boolean {
  if (rule === 'agents') return principal.kind === 'agent';
  if (rule === 'all-but-admins') return principal.role !== 'owner' && principal.role !== 'admin';
  return false;
}

/** A caller as a rule judges it: its principal (null: Slipway itself) and effective scopes. */
export type RuleSubject = Pick<RequestContext, 'principal' | 'scopes'>;

/**
 * Each rule holds back everyone the one before it does: `agents` holds back every agent, and
 * `all-but-admins` every principal whose role is below admin, which every agent's is.
 */
const STRICTNESS: Record<ApprovalRule, number> = { none: 0, agents: 1, 'all-but-admins': 2 };

/** Whether `next` holds back at least everyone `current` does. */
export const atLeastAsStrict = (next: ApprovalRule, current: ApprovalRule) =>
  STRICTNESS[next] >= STRICTNESS[current];

/**
 * The one check behind every path around a rule: a caller whose deploys the service's rule holds
 * back may not `what` (e.g. "change its backup command"), which would get around the rule;
 * someone the rule lets through must. `field` names the input refused.
 */
export function assertNotHeldBack(
  rule: ApprovalRule,
  by: RuleSubject,
  what: string,
  field: string,
): void {
  if (!by.principal || !approvalRequired(rule, by.principal)) return;
  const who = rule === 'agents' ? 'a human' : 'an owner or admin';
  throw new AppError(
    'FORBIDDEN',
    `The service's approval rule (${rule}) holds back your deploys, so you cannot ${what}: ` +
      `${who}, whom the rule does not hold back, must make this change`,
    {
      requiredScopes: [],
      grantedScopes: [...by.scopes].sort(),
      rule: 'approval-rule',
      approvalRule: rule,
      field,
    },
  );
}

/** What guards a service: its rule, and the commands Slipway runs on its server for it. */
export interface GuardedSettings {
  approvalRule: ApprovalRule;
  backupCommand: string | null;
  restoreCommand: string | null;
}

const COMMANDS = [
  ['backupCommand', 'backup command'],
  ['restoreCommand', 'restore command'],
] as const;

/**
 * A change a held-back caller may not make to a service: weakening or removing its rule, or
 * changing a command that runs on its server as a shell line, without any approval. A stricter
 * rule only adds reviews (which only someone it lets through can take back), so it is allowed.
 */
export function assertMayChangeGuarded(
  current: GuardedSettings,
  changes: Partial<GuardedSettings>,
  by: RuleSubject,
): void {
  const rule = current.approvalRule;
  const next = changes.approvalRule;
  if (next !== undefined && !atLeastAsStrict(next, rule))
    assertNotHeldBack(rule, by, `weaken its approval rule to ${next}`, 'approvalRule');
  for (const [field, label] of COMMANDS) {
    const value = changes[field];
    if (value !== undefined && value !== current[field])
      assertNotHeldBack(rule, by, `change its ${label}`, field);
  }
}
