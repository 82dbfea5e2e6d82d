import { randomUUID } from 'node:crypto';
import type { ICommandHandler } from '@nestjs/cqrs';
import { badRequest } from '../../common/app-error.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { alertRuleStream, type AlertMetric } from '../../events/alerts.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { alertRuleDecider } from './alert-rule.decider.js';
import { alertTarget } from './alert-target.js';
import { CONTAINER_METRICS, SERVER_METRICS, SetAlertRuleInput } from './metrics.input.js';

export class SetAlertRule extends ProcedureCommand<
  SetAlertRuleInput,
  { ruleId: string; changed: boolean }
> {}

/** Thresholds that can be met, in the metric's range, critical not below warning. */
function thresholdProblem(input: SetAlertRuleInput, allowed: readonly AlertMetric[]) {
  if (!allowed.includes(input.metric)) {
    return { path: 'metric', message: `one of: ${allowed.join(', ')}` };
  }
  const { warning, critical } = input;
  if (warning === undefined && critical === undefined) {
    return { path: 'warning', message: 'a warning or a critical threshold is required' };
  }
  if (input.metric.endsWith('Percent') && Math.max(warning ?? 0, critical ?? 0) > 100) {
    return { path: 'critical', message: 'a percentage is at most 100' };
  }
  if (warning !== undefined && critical !== undefined && critical < warning) {
    return { path: 'critical', message: 'critical is at or above warning' };
  }
  return null;
}

@Procedure.command(SetAlertRule, {
  name: 'setAlertRule',
  roles: OPERATORS,
  scopes: ['notifications:manage'],
  input: SetAlertRuleInput,
  description:
    'Adds or changes a threshold alert rule on a server (CPU, memory, disk, Docker disk) or on each container of a service (CPU, memory): warning and critical levels held for a duration raise an alert, notified once per incident, and its recovery.',
  project: { alert: 'ruleId' },
})
export class SetAlertRuleHandler implements ICommandHandler<SetAlertRule> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input, ctx }: SetAlertRule) {
    const target = await alertTarget(input, this.lookup);
    const problem = thresholdProblem(input, target.serverId ? SERVER_METRICS : CONTAINER_METRICS);
    if (problem) throw badRequest(`${problem.path}: ${problem.message}`, [problem]);
    const ruleId = input.ruleId ?? randomUUID();
    const decision = await this.runner.run(
      alertRuleStream(ruleId),
      alertRuleDecider,
      {
        kind: 'set',
        settings: {
          ruleId,
          name: input.name,
          ...target,
          metric: input.metric,
          warning: input.warning ?? null,
          critical: input.critical ?? null,
          forSeconds: input.forSeconds ?? 300,
          enabled: input.enabled ?? true,
        },
      },
      ctx,
    );
    return { ruleId, changed: decision.events.length > 0 };
  }
}
