import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../api/access';
import { mutate } from '../api/client';
import { Confirm } from '../components/confirm';
import { FormError } from '../components/form';
import { formatMetric } from '../components/metric-format';
import { Loading } from '../components/page';
import { StatusBadge } from '../components/status';
import { AlertRuleForm } from './alert-rule-form';
import {
  METRIC_INFO,
  targetId,
  useAlertRules,
  type AlertMetric,
  type AlertTarget,
  type Rule,
} from './alert-rule-types';

const seconds = (s: number) => (s % 60 === 0 && s >= 60 ? `${s / 60} min` : `${s} s`);
const level = (rule: Rule, value: number | null) =>
  value === null ? '—' : formatMetric(value, METRIC_INFO[rule.metric].unit);

function RuleRow({ rule, target }: { rule: Rule; target: AlertTarget }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: ['alertRules', targetId(target)] });
  const remove = useMutation({
    mutationFn: () => mutate('removeAlertRule', { ruleId: rule.ruleId }),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: () =>
      mutate('setAlertRule', {
        ...target,
        ruleId: rule.ruleId,
        name: rule.name,
        metric: rule.metric,
        ...(rule.warning === null ? {} : { warning: rule.warning }),
        ...(rule.critical === null ? {} : { critical: rule.critical }),
        forSeconds: rule.forSeconds,
        enabled: !rule.enabled,
      }),
    onSuccess: refresh,
  });
  const { name } = rule;
  return (
    <tr>
      <td data-label="Rule">
        <strong>{name}</strong>
      </td>
      <td data-label="Metric">{METRIC_INFO[rule.metric].label}</td>
      <td data-label="Warning">{level(rule, rule.warning)}</td>
      <td data-label="Critical">{level(rule, rule.critical)}</td>
      <td data-label="For">{seconds(rule.forSeconds)}</td>
      <td data-label="State">
        <StatusBadge status={rule.enabled ? 'enabled' : 'disabled'} />
      </td>
      <td data-label="">
        {asking ? (
          <Confirm
            className="row-actions"
            question={`Remove ${name}?`}
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
            onKeep={() => setAsking(false)}
          >
            Yes, remove {name}
          </Confirm>
        ) : (
          <div className="row-actions">
            {can('setAlertRule') && (
              <button
                type="button"
                className="button"
                disabled={toggle.isPending}
                onClick={() => toggle.mutate()}
              >
                {rule.enabled ? `Disable ${name}` : `Enable ${name}`}
              </button>
            )}
            {can('removeAlertRule') && (
              <button type="button" className="button danger" onClick={() => setAsking(true)}>
                Remove {name}…
              </button>
            )}
          </div>
        )}
        <FormError error={remove.error ?? toggle.error} />
      </td>
    </tr>
  );
}

/**
 * The threshold alert rules of a server or a service: each with its levels and duration, enabled
 * or disabled, removed after a confirmation; and a form to add one, on the metrics it may watch.
 * Controls the viewer may not use are not shown.
 */
export function AlertRules({
  target,
  metrics,
}: {
  target: AlertTarget;
  metrics: readonly AlertMetric[];
}) {
  const can = useCan();
  const [adding, setAdding] = useState(false);
  const rules = useAlertRules(target);
  const mayChange = can('setAlertRule') || can('removeAlertRule');
  const titleId = `alert-rules-${targetId(target)}`;
  return (
    <section className="alert-rules" aria-labelledby={titleId}>
      <div className="section-header">
        <h4 id={titleId}>Alert rules</h4>
        {can('setAlertRule') && (
          <button
            type="button"
            className="button"
            aria-expanded={adding}
            onClick={() => setAdding(!adding)}
          >
            {adding ? 'Close the rule form' : 'Add a rule'}
          </button>
        )}
      </div>
      {adding && <AlertRuleForm target={target} metrics={metrics} />}
      {rules.isPending ? (
        <Loading what="alert rules" />
      ) : rules.isError ? (
        <FormError error={rules.error} />
      ) : rules.data.rules.length === 0 ? (
        <p className="muted small">
          No alert rule: a rule raises an alert when a metric stays at or above its warning or
          critical level for a while{mayChange ? '.' : ', added by an operator, admin or owner.'}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table compact stack" aria-label="Alert rules">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Metric</th>
                <th scope="col">Warning</th>
                <th scope="col">Critical</th>
                <th scope="col">For</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.data.rules.map((r) => (
                <RuleRow key={r.ruleId} rule={r} target={target} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
