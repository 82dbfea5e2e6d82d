import {
  AlertEscalated,
  AlertRaised,
  AlertResolved,
  AlertRuleRemoved,
  AlertRuleSet,
  type AlertKind,
  type AlertMetric,
  type AlertSeverity,
} from '../src/events/alerts.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `alert_rules`: `{id (the rule id), name, serverId, serviceId (one of the two), metric,
 * warning, critical, forSeconds, enabled, setAt, setBy}`. A removed rule has no document.
 */
export interface AlertRuleDoc extends Doc {
  name: string;
  serverId: string | null;
  serviceId: string | null;
  metric: AlertMetric;
  warning: number | null;
  critical: number | null;
  forSeconds: number;
  enabled: boolean;
  setAt: string;
  setBy: string | null;
}

export type AlertStatus = 'open' | 'resolved';

/**
 * `alerts`: one document per incident, `{id (the alert id), kind, ruleId, serverId, serviceId,
 * container, metric, severity (the highest reached), status, value and threshold (when raised,
 * or escalated), detail, raisedAt, escalatedAt, resolvedAt, resolvedValue}`.
 */
export interface AlertDoc extends Doc {
  kind: AlertKind;
  ruleId: string | null;
  serverId: string;
  serviceId: string | null;
  container: string | null;
  metric: string | null;
  severity: AlertSeverity;
  status: AlertStatus;
  value: number | null;
  threshold: number | null;
  detail: string;
  raisedAt: string;
  escalatedAt: string | null;
  resolvedAt: string | null;
  resolvedValue: number | null;
}

const byAlert = (e: { data: { alertId: string } }) => e.data.alertId;
const byRule = (e: { data: { ruleId: string } }) => e.data.ruleId;

export const alertsProjection: Projection = {
  name: 'alerts',
  version: 1,
  collections: [
    { name: 'alert_rules', indexes: [{ fields: ['serverId'] }, { fields: ['serviceId'] }] },
    {
      name: 'alerts',
      indexes: [
        { fields: ['status', 'raisedAt'] },
        { fields: ['serverId', 'raisedAt'] },
        { fields: ['serviceId', 'raisedAt'] },
      ],
    },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof AlertRuleSet>, AlertRuleDoc>(AlertRuleSet, {
      collection: 'alert_rules',
      documentId: byRule,
      evolve: (_c, { data, metadata, recordedAt }) => ({
        id: data.ruleId,
        name: data.name,
        serverId: data.serverId,
        serviceId: data.serviceId,
        metric: data.metric,
        warning: data.warning,
        critical: data.critical,
        forSeconds: data.forSeconds,
        enabled: data.enabled,
        setAt: recordedAt,
        setBy: metadata.actor.principalId,
      }),
    }),
    on<EventDataOf<typeof AlertRuleRemoved>, AlertRuleDoc>(AlertRuleRemoved, {
      collection: 'alert_rules',
      documentId: byRule,
      evolve: () => null,
    }),
    on<EventDataOf<typeof AlertRaised>, AlertDoc>(AlertRaised, {
      collection: 'alerts',
      documentId: byAlert,
      evolve: (_c, { data, recordedAt }) => ({
        id: data.alertId,
        kind: data.kind,
        ruleId: data.ruleId,
        serverId: data.serverId,
        serviceId: data.serviceId,
        container: data.container,
        metric: data.metric,
        severity: data.severity,
        status: 'open',
        value: data.value,
        threshold: data.threshold,
        detail: data.detail,
        raisedAt: recordedAt,
        escalatedAt: null,
        resolvedAt: null,
        resolvedValue: null,
      }),
    }),
    on<EventDataOf<typeof AlertEscalated>, AlertDoc>(AlertEscalated, {
      collection: 'alerts',
      documentId: byAlert,
      evolve: (current, { data, recordedAt }) =>
        current && {
          ...current,
          severity: data.severity,
          value: data.value,
          threshold: data.threshold,
          detail: data.detail,
          escalatedAt: recordedAt,
        },
    }),
    on<EventDataOf<typeof AlertResolved>, AlertDoc>(AlertResolved, {
      collection: 'alerts',
      documentId: byAlert,
      evolve: (current, { data, recordedAt }) =>
        current && {
          ...current,
          status: 'resolved',
          resolvedAt: recordedAt,
          resolvedValue: data.value,
        },
    }),
  ),
};
