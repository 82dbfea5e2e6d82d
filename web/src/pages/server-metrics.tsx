import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../api/access';
import { query } from '../api/client';
import { FormError } from '../components/form';
import { MetricChart } from '../components/metric-chart';
import { Loading } from '../components/page';
import { AlertRules } from './alert-rules';
import { METRIC_INFO, thresholdsOf, useAlertRules, type AlertMetric } from './alert-rule-types';
import {
  DEFAULT_HOURS,
  METRICS_POLL_MS,
  pointsOf,
  WindowPicker,
  windowText,
} from './metric-window';
import { OpenAlerts } from './open-alerts';

/** What a server's rules may watch, and its charts, in this order. */
const SERVER_METRICS: readonly AlertMetric[] = [
  'cpuPercent',
  'memoryPercent',
  'diskPercent',
  'dockerDiskBytes',
];

/**
 * A server's metrics, a section of its card: CPU, memory, disk and Docker's disk use over the
 * window picked (as read, or hourly means and peaks for longer windows), with the levels of its
 * alert rules; its open alerts; and its alert rules.
 */
export function ServerMetrics({ serverId }: { serverId: string }) {
  const can = useCan();
  const [hours, setHours] = useState(DEFAULT_HOURS);
  const metrics = useQuery({
    queryKey: ['serverMetrics', serverId, hours],
    queryFn: () => query('serverMetrics', { serverId, hours }),
    placeholderData: keepPreviousData,
    refetchInterval: METRICS_POLL_MS,
  });
  const rules = useAlertRules({ serverId }, can('alertRules'));
  const titleId = `server-metrics-${serverId}`;
  return (
    <section className="metrics" aria-labelledby={titleId}>
      <div className="section-header">
        <h3 id={titleId}>Metrics</h3>
        <WindowPicker hours={hours} onChange={setHours} />
      </div>
      {metrics.isPending ? (
        <Loading what="metrics" />
      ) : metrics.isError ? (
        <FormError error={metrics.error} />
      ) : metrics.data.points.length === 0 ? (
        <p className="muted small">
          No reading in {windowText(hours)}: the runner reads each ready server every minute or so.
        </p>
      ) : (
        <div className="metric-charts" aria-busy={metrics.isPlaceholderData}>
          {SERVER_METRICS.map((metric) => (
            <MetricChart
              key={metric}
              title={METRIC_INFO[metric].label}
              unit={METRIC_INFO[metric].unit}
              points={pointsOf(metrics.data.points, metric, metrics.data.resolution === 'hour')}
              from={metrics.data.from}
              thresholds={thresholdsOf(rules.data?.rules, metric)}
            />
          ))}
        </div>
      )}
      {can('alerts') && <OpenAlerts target={{ serverId }} />}
      {can('alertRules') && <AlertRules target={{ serverId }} metrics={SERVER_METRICS} />}
    </section>
  );
}
