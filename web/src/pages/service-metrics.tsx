import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { query } from '../api/client';
import { FormError } from '../components/form';
import { MetricChart, type ChartThreshold } from '../components/metric-chart';
import { formatMetric } from '../components/metric-format';
import { Loading } from '../components/page';
import { StatusBadge } from '../components/status';
import { AlertRules } from './alert-rules';
import { thresholdsOf, useAlertRules, type AlertMetric, type Rule } from './alert-rule-types';
import {
  DEFAULT_HOURS,
  latestOf,
  METRICS_POLL_MS,
  pointsOf,
  WindowPicker,
  windowText,
} from './metric-window';
import { OpenAlerts } from './open-alerts';

type Container = AnswerOf<'serviceMetrics'>['containers'][number];

/** What a service's rules may watch (on each of its containers). */
const CONTAINER_METRICS: readonly AlertMetric[] = ['cpuPercent', 'memoryPercent', 'memoryBytes'];

/** Restarts within the window: the rises of the restart count (a new container starts at 0). */
function restartsIn(container: Container): number {
  const counts = container.points
    .map((p) => p.values.restarts)
    .filter((n): n is number => n !== null && n !== undefined);
  return counts.slice(1).reduce((sum, n, i) => sum + Math.max(0, n - counts[i]!), 0);
}

function ContainerMetrics({
  container,
  from,
  hourly,
  rules,
}: {
  container: Container;
  from: string;
  hourly: boolean;
  rules: Rule[] | undefined;
}) {
  const { points } = container;
  const restarts = latestOf(points, 'restarts');
  const memoryPercent = latestOf(points, 'memoryPercent');
  const lately = restartsIn(container);
  const thresholds = (metric: AlertMetric): ChartThreshold[] => thresholdsOf(rules, metric);
  return (
    <section className="metric-container" aria-label={`Container ${container.container}`}>
      <div className="card-header">
        <h5>
          <code>{container.container}</code>
        </h5>
        <span className="job-badges">
          <StatusBadge status={container.state ?? 'unknown'} />
          {container.health && <StatusBadge status={container.health} />}
        </span>
      </div>
      <p className="muted small container-facts">
        {restarts === null
          ? 'Restarts not read'
          : `${restarts} restart${restarts === 1 ? '' : 's'} (${lately} in this window)`}
        {memoryPercent !== null &&
          ` · memory ${formatMetric(memoryPercent, 'percent')} of its limit`}
      </p>
      <div className="metric-charts">
        <MetricChart
          title="CPU"
          unit="percent"
          points={pointsOf(points, 'cpuPercent', hourly)}
          from={from}
          thresholds={thresholds('cpuPercent')}
        />
        <MetricChart
          title="Memory used"
          unit="bytes"
          points={pointsOf(points, 'memoryBytes', hourly)}
          from={from}
          thresholds={thresholds('memoryBytes')}
        />
      </div>
    </section>
  );
}

/**
 * A service's metrics, a section of its card: each container's state, health and restarts, and
 * its CPU and memory use over the window picked; the service's open alerts; its alert rules
 * (checked on every container).
 */
export function ServiceMetrics({ serviceId }: { serviceId: string }) {
  const can = useCan();
  const [hours, setHours] = useState(DEFAULT_HOURS);
  const metrics = useQuery({
    queryKey: ['serviceMetrics', serviceId, hours],
    queryFn: () => query('serviceMetrics', { serviceId, hours }),
    placeholderData: keepPreviousData,
    refetchInterval: METRICS_POLL_MS,
  });
  const rules = useAlertRules({ serviceId }, can('alertRules'));
  const titleId = `service-metrics-${serviceId}`;
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
      ) : metrics.data.containers.length === 0 ? (
        <p className="muted small">
          No container read in {windowText(hours)}: once the service is deployed, the runner reads
          its containers every minute or so.
        </p>
      ) : (
        <div aria-busy={metrics.isPlaceholderData}>
          {metrics.data.containers.map((c) => (
            <ContainerMetrics
              key={c.container}
              container={c}
              from={metrics.data.from}
              hourly={metrics.data.resolution === 'hour'}
              rules={rules.data?.rules}
            />
          ))}
        </div>
      )}
      {can('alerts') && <OpenAlerts target={{ serviceId }} />}
      {can('alertRules') && <AlertRules target={{ serviceId }} metrics={CONTAINER_METRICS} />}
    </section>
  );
}
