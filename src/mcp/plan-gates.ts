/**
 * Plan before command: the command tools that have a planning counterpart, and what of their
 * input a plan must have been made for. A gated command called through MCP needs the `planId`
 * its plan returned (same principal, same subject, at most `PLAN_TTL_MS` old).
 *
 * The subject is the part of the input the plan previews; free text the plan does not look at
 * (a `reason`) is left out, so it may differ. Compose deploys have a planning procedure
 * (`composeDeploymentPlan`) but no command procedure yet: when one is declared, it gets its row
 * here. `restoreBackup` needs a `backupRestorePlan` of the same backup.
 */
export interface PlanGate {
  command: string;
  plan: string;
  /** The subject of a command's (validated) input. */
  commandSubject(input: Record<string, unknown>): Record<string, unknown>;
  /** The subject of a plan's input, or null when the plan does not pin one (no plan id then). */
  planSubject(input: Record<string, unknown>): Record<string, unknown> | null;
}

export const PLAN_TTL_MS = 10 * 60 * 1000;

const pick = (input: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(fields.map((f) => [f, input[f]]));

const DEPLOY_FIELDS = ['serviceId', 'imageTag'] as const;
const ROLLBACK_FIELDS = ['serviceId', 'targetDeploymentId'] as const;
const RESTORE_FIELDS = ['backupId'] as const;

export const PLAN_GATES: readonly PlanGate[] = [
  {
    command: 'triggerDeploy',
    plan: 'deploymentPlan',
    commandSubject: (input) => pick(input, DEPLOY_FIELDS),
    planSubject: (input) => pick(input, DEPLOY_FIELDS),
  },
  {
    command: 'executeRollback',
    plan: 'rollbackPlan',
    commandSubject: (input) => pick(input, ROLLBACK_FIELDS),
    // A plan for "the previous deployment" does not say which one the command will name.
    planSubject: (input) =>
      typeof input.targetDeploymentId === 'string' ? pick(input, ROLLBACK_FIELDS) : null,
  },
  {
    command: 'restoreBackup',
    plan: 'backupRestorePlan',
    commandSubject: (input) => pick(input, RESTORE_FIELDS),
    planSubject: (input) => pick(input, RESTORE_FIELDS),
  },
];

export function gateOfCommand(name: string): PlanGate | undefined {
  return PLAN_GATES.find((g) => g.command === name);
}

export function gateOfPlan(name: string): PlanGate | undefined {
  return PLAN_GATES.find((g) => g.plan === name);
}
