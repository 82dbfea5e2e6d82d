import { alertRuleStream } from '../../events/alerts.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { decides } from '../../storage/deciding-handler.js';
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
export class RemoveAlertRuleHandler extends decides(alertRuleDecider).removes(
  RemoveAlertRule,
  'ruleId',
  alertRuleStream,
) {}
