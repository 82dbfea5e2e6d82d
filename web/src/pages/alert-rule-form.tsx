import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { mutate } from '../api/client';
import { Done, SelectField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { METRIC_INFO, targetId, type AlertMetric, type AlertTarget } from './alert-rule-types';

const FACTOR: Record<string, number> = { '%': 1, MB: 1024 ** 2, GB: 1024 ** 3 };
const FIELDS = ['name', 'metric', 'warning', 'critical', 'forSeconds'];

/** A threshold as typed, in the API's unit: undefined when left out, NaN when not a number. */
function parsed(text: string, metric: AlertMetric): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text.trim());
  return Number.isFinite(n) && n >= 0
    ? Math.round(n * FACTOR[METRIC_INFO[metric].typed]! * 100) / 100
    : NaN;
}

/** A new alert rule of a server or a service, on one of the metrics it may watch. */
export function AlertRuleForm({
  target,
  metrics,
}: {
  target: AlertTarget;
  metrics: readonly AlertMetric[];
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [metric, setMetric] = useState<AlertMetric>(metrics[0]!);
  const [warning, setWarning] = useState('');
  const [critical, setCritical] = useState('');
  const [forSeconds, setForSeconds] = useState('300');
  const [shown, setShown] = useState(false);
  const typed = METRIC_INFO[metric].typed;
  const levels = { warning: parsed(warning, metric), critical: parsed(critical, metric) };
  const notANumber = (v: number | undefined) =>
    shown && Number.isNaN(v) ? 'a number, 0 or more' : null;
  const set = useMutation({
    mutationFn: () =>
      mutate('setAlertRule', {
        ...target,
        name,
        metric,
        ...(levels.warning === undefined ? {} : { warning: levels.warning }),
        ...(levels.critical === undefined ? {} : { critical: levels.critical }),
        forSeconds: Number(forSeconds || 0),
      }),
    onSuccess: () => {
      setName('');
      setWarning('');
      setCritical('');
      setShown(false);
      void queryClient.invalidateQueries({ queryKey: ['alertRules', targetId(target)] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setShown(true);
    if (Number.isNaN(levels.warning) || Number.isNaN(levels.critical)) return;
    set.mutate();
  };
  return (
    <form className="rule-form" onSubmit={submit} aria-label="Add an alert rule" noValidate>
      <h5>Add a rule</h5>
      <FormError error={set.error} fields={FIELDS} />
      <div className="rule-fields">
        <Field
          name="name"
          label="Rule name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          hint="Lower-case letters, digits and -"
          error={set.error}
          required
        />
        <SelectField
          name="metric"
          label="Metric"
          value={metric}
          onChange={(e) => setMetric(e.target.value as AlertMetric)}
          options={metrics.map((m) => ({
            value: m,
            label: `${METRIC_INFO[m].label} (${METRIC_INFO[m].typed})`,
          }))}
          error={set.error}
        />
        <Field
          name="warning"
          label={`Warning at (${typed})`}
          inputMode="decimal"
          value={warning}
          onChange={(e) => setWarning(e.target.value)}
          error={set.error}
          problem={notANumber(levels.warning)}
        />
        <Field
          name="critical"
          label={`Critical at (${typed})`}
          inputMode="decimal"
          value={critical}
          onChange={(e) => setCritical(e.target.value)}
          error={set.error}
          problem={notANumber(levels.critical)}
        />
        <Field
          name="forSeconds"
          label="For (seconds)"
          inputMode="numeric"
          value={forSeconds}
          onChange={(e) => setForSeconds(e.target.value)}
          hint="How long it stays at or above, 0-3600"
          error={set.error}
        />
      </div>
      <div className="button-row">
        <SubmitButton pending={set.isPending}>Add the rule</SubmitButton>
      </div>
      {set.data && (
        <Done>
          <p>Rule added: it is checked at every reading.</p>
        </Done>
      )}
    </form>
  );
}
