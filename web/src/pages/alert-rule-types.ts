import { useQuery } from '@tanstack/react-query';
import type { AnswerOf } from '../api/answers';
import { query } from '../api/client';
import type { ChartThreshold } from '../components/metric-chart';
import type { MetricUnit } from '../components/metric-format';

export type Rule = AnswerOf<'alertRules'>['rules'][number];
export type AlertMetric = Rule['metric'];
/** A server or a service: what alerts and rules belong to. */
export type AlertTarget = { serverId: string } | { serviceId: string };

/** Each metric in words, its unit, and the unit its thresholds are typed in. */
export const METRIC_INFO: Record<AlertMetric, { label: string; unit: MetricUnit; typed: string }> =
  {
    cpuPercent: { label: 'CPU', unit: 'percent', typed: '%' },
    memoryPercent: { label: 'Memory', unit: 'percent', typed: '%' },
    memoryBytes: { label: 'Memory used', unit: 'bytes', typed: 'MB' },
    diskPercent: { label: 'Disk', unit: 'percent', typed: '%' },
    dockerDiskBytes: { label: 'Docker disk', unit: 'bytes', typed: 'GB' },
  };

/** The server's or the service's id, which its alert and rule queries are keyed by. */
export const targetId = (target: AlertTarget) =>
  'serverId' in target ? target.serverId : target.serviceId;

/** The rules of a server or a service (one query, shared by its charts and its list). */
export function useAlertRules(target: AlertTarget, enabled = true) {
  return useQuery({
    queryKey: ['alertRules', targetId(target)],
    queryFn: () => query('alertRules', target),
    enabled,
  });
}

/** The lowest warning and critical levels of the enabled rules on one metric, for its chart. */
export function thresholdsOf(rules: Rule[] | undefined, metric: AlertMetric): ChartThreshold[] {
  const on = (rules ?? []).filter((r) => r.enabled && r.metric === metric);
  return (['warning', 'critical'] as const).flatMap((level) => {
    const values = on.map((r) => r[level]).filter((v): v is number => v !== null);
    return values.length ? [{ level, value: Math.min(...values) }] : [];
  });
}
