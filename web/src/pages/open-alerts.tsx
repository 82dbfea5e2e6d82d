import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AnswerOf } from '../api/answers';
import { query } from '../api/client';
import { formatMetric } from '../components/metric-format';
import { FormError } from '../components/form';
import { Loading } from '../components/page';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';
import { METRIC_INFO, type AlertMetric, type AlertTarget } from './alert-rule-types';

type Alert = AnswerOf<'alerts'>['alerts'][number];

/** Alerts are read again this often (they are checked at every reading). */
const POLL_MS = 30_000;
const SHOWN = 20;

const KINDS: Record<Alert['kind'], string> = {
  threshold: 'threshold',
  'restart-loop': 'restart loop',
  unhealthy: 'health check failing',
};

/** The value that raised an alert, against its threshold, in the metric's unit. */
function reading(alert: Alert): string | null {
  if (alert.value === null) return null;
  const unit = METRIC_INFO[alert.metric as AlertMetric]?.unit ?? 'count';
  const value = formatMetric(alert.value, unit);
  return alert.threshold === null ? value : `${value} (at ${formatMetric(alert.threshold, unit)})`;
}

function AlertItem({ alert }: { alert: Alert }) {
  const value = reading(alert);
  return (
    <li className="alert-item">
      <span className="job-badges">
        <StatusBadge status={alert.severity} />
        {alert.status === 'resolved' && <StatusBadge status="resolved" />}
      </span>
      <span>
        {alert.detail}
        <br />
        <span className="muted small">
          {KINDS[alert.kind]}
          {alert.container && (
            <>
              {' '}
              · <code>{alert.container}</code>
            </>
          )}
          {value && ` · ${value}`} · raised <When at={alert.raisedAt} />
          {alert.resolvedAt && (
            <>
              {' '}
              · resolved <When at={alert.resolvedAt} />
            </>
          )}
        </span>
      </span>
    </li>
  );
}

/**
 * The alerts of a server (its own, not its containers') or a service: the open ones, newest
 * first, or the recent ones with the resolved.
 */
export function OpenAlerts({ target }: { target: AlertTarget }) {
  const [all, setAll] = useState(false);
  const status = all ? 'all' : 'open';
  const id = 'serverId' in target ? target.serverId : target.serviceId;
  const alerts = useQuery({
    queryKey: ['alerts', id, status],
    queryFn: () => query('alerts', { ...target, status, limit: SHOWN }),
    refetchInterval: POLL_MS,
  });
  const titleId = `alerts-${id}`;
  return (
    <section className="alerts" aria-labelledby={titleId}>
      <div className="section-header">
        <h4 id={titleId}>{all ? 'Recent alerts' : 'Open alerts'}</h4>
        <label className="check small alerts-toggle">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          Show the resolved ones too
        </label>
      </div>
      {alerts.isPending ? (
        <Loading what="alerts" />
      ) : alerts.isError ? (
        <FormError error={alerts.error} />
      ) : alerts.data.alerts.length === 0 ? (
        <p className="muted small">{all ? 'No alert yet.' : 'No open alert.'}</p>
      ) : (
        <ul className="plain-list alert-list" aria-label={all ? 'Recent alerts' : 'Open alerts'}>
          {alerts.data.alerts.map((a) => (
            <AlertItem key={a.alertId} alert={a} />
          ))}
        </ul>
      )}
    </section>
  );
}
