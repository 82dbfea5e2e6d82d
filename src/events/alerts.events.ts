import { defineEvent } from '../eventstore/define-event.js';

/** What a threshold rule watches: a server's or each of a service's containers' metric. */
export type AlertMetric =
  'cpuPercent' | 'memoryPercent' | 'memoryBytes' | 'diskPercent' | 'dockerDiskBytes';

/**
 * A threshold rule as set, whole. It watches one server (`serverId`) or each container of one
 * service (`serviceId`): one of the two is null. It fires at `warning` or `critical` (either may
 * be null, not both) once the metric has stayed at or above it for `forSeconds`.
 */
export type AlertRuleSettings = {
  ruleId: string;
  name: string;
  serverId: string | null;
  serviceId: string | null;
  metric: AlertMetric;
  warning: number | null;
  critical: number | null;
  forSeconds: number;
  enabled: boolean;
};

/** Stream `alert-rule-<ruleId>`. */
export const AlertRuleSet = defineEvent<AlertRuleSettings>('AlertRuleSet', 1);

export const AlertRuleRemoved = defineEvent<{
  ruleId: string;
  serverId: string | null;
  serviceId: string | null;
}>('AlertRuleRemoved', 1);

/**
 * What raised an alert: a threshold rule, a container restarting over and over, or a container
 * its health check calls unhealthy.
 */
export type AlertKind = 'threshold' | 'restart-loop' | 'unhealthy';
export type AlertSeverity = 'warning' | 'critical';

/** One incident of one condition (a rule on one series, or a built-in check on a container). */
export type AlertFacts = {
  alertId: string;
  kind: AlertKind;
  ruleId: string | null;
  serverId: string;
  serviceId: string | null;
  container: string | null;
  metric: string | null;
  /** The value that decided (a metric's; restarts within the window; null for health). */
  value: number | null;
  threshold: number | null;
  detail: string;
};

/**
 * Stream `alert-<condition>` (a digest of what is watched): its incidents one after another, so
 * runners in several processes raise each once.
 */
export const AlertRaised = defineEvent<AlertFacts & { severity: AlertSeverity }>('AlertRaised', 1);

/** An open incident grew from warning to critical. */
export const AlertEscalated = defineEvent<AlertFacts & { severity: AlertSeverity }>(
  'AlertEscalated',
  1,
);

/** The condition no longer holds (or its rule was removed): the incident is over. */
export const AlertResolved = defineEvent<AlertFacts>('AlertResolved', 1);

export const alertRuleStream = (ruleId: string) => `alert-rule-${ruleId}`;
export const alertStream = (condition: string) => `alert-${condition}`;
