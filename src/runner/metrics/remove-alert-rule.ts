import type { ICommandHandler } from '@nestjs/cqrs';
import { alertRuleStream } from '../../events/alerts.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { alertRuleDecider } from './alert-rule.decider.js';
import { AlertRuleIdInput } from './metrics.input.js';

export class RemoveAlertRule extends ProcedureCommand<
  AlertRuleIdInput,
  { ruleId: string; removed: true }
> {}

@Procedure.command(RemoveAlertRule, {
  name: 'removeAlertRule',
  roles: OPERATORS,
  scopes: ['notifications:manage'],
  input: AlertRuleIdInput,
  description:
    'Removes an alert rule: it is checked no more, and an alert it holds open is resolved at the next check.',
  project: { alert: 'ruleId' },
})
export class RemoveAlertRuleHandler implements ICommandHandler<RemoveAlertRule> {
  constructor(private readonly runner: DeciderRunner) {}

  async execute({ input, ctx }: RemoveAlertRule) {
    await this.runner.run(
      alertRuleStream(input.ruleId),
      alertRuleDecider,
      { kind: 'remove', ruleId: input.ruleId },
      ctx,
    );
    return { ruleId: input.ruleId, removed: true as const };
  }
}
