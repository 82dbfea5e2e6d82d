import { describe, it } from '@jest/globals';
import {
  AlertEscalated,
  AlertRaised,
  AlertResolved,
  AlertRuleRemoved,
  AlertRuleSet,
} from '../src/events/alerts.events.js';
import { alertsProjection } from './alerts.projection.js';
import { at } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';

const settings = {
  ruleId: 'r-1',
  name: 'busy web',
  serverId: null,
  serviceId: 's-1',
  metric: 'cpuPercent' as const,
  warning: 80,
  critical: 95,
  forSeconds: 300,
  enabled: true,
};
const ruleDoc = {
  id: 'r-1',
  name: 'busy web',
  serverId: null,
  serviceId: 's-1',
  metric: 'cpuPercent',
  warning: 80,
  critical: 95,
  forSeconds: 300,
  enabled: true,
  setAt: at(0),
  setBy: null,
};
const facts = {
  alertId: 'abc-1',
  kind: 'threshold' as const,
  ruleId: 'r-1',
  serverId: 'srv-1',
  serviceId: 's-1',
  container: 'proj-web-1',
  metric: 'cpuPercent',
  value: 85,
  threshold: 80,
  detail: 'CPU at 85% (warning at 80%)',
};
const raised = AlertRaised({ ...facts, severity: 'warning' });
const escalated = AlertEscalated({
  ...facts,
  value: 97,
  threshold: 95,
  detail: 'CPU at 97% (critical at 95%)',
  severity: 'critical',
});
const resolved = AlertResolved({ ...facts, value: 12, detail: 'CPU at 12%' });
const openDoc = {
  id: 'abc-1',
  kind: 'threshold',
  ruleId: 'r-1',
  serverId: 'srv-1',
  serviceId: 's-1',
  container: 'proj-web-1',
  metric: 'cpuPercent',
  severity: 'warning',
  status: 'open',
  value: 85,
  threshold: 80,
  detail: 'CPU at 85% (warning at 80%)',
  raisedAt: at(0),
  escalatedAt: null,
  resolvedAt: null,
  resolvedValue: null,
};
const escalatedDoc = {
  ...openDoc,
  severity: 'critical',
  value: 97,
  threshold: 95,
  detail: 'CPU at 97% (critical at 95%)',
  escalatedAt: at(1),
};

describe('alerts projection', () => {
  it('Given a rule set, Then it is listed with who set it and when', () => {
    givenProjection(alertsProjection)
      .given(AlertRuleSet(settings))
      .then({ alert_rules: { 'r-1': ruleDoc } });
  });

  it('Given a rule set by someone and then changed, Then the latest settings are listed', () => {
    givenProjection(alertsProjection)
      .given(AlertRuleSet(settings), {
        ...AlertRuleSet({ ...settings, warning: 70, enabled: false }),
        metadata: { actor: { principalId: 'u-1', kind: 'user', role: 'admin' } },
      })
      .then({
        alert_rules: {
          'r-1': { ...ruleDoc, warning: 70, enabled: false, setAt: at(1), setBy: 'u-1' },
        },
      });
  });

  it('Given a rule set then removed, Then nothing is listed', () => {
    givenProjection(alertsProjection)
      .given(
        AlertRuleSet(settings),
        AlertRuleRemoved({ ruleId: 'r-1', serverId: null, serviceId: 's-1' }),
      )
      .then({ alert_rules: {} });
  });

  it('Given an incident raised, Then it is open at its severity', () => {
    givenProjection(alertsProjection)
      .given(raised)
      .then({ alerts: { 'abc-1': openDoc } });
  });

  it('Given an incident raised then escalated, Then it is critical with the new value', () => {
    givenProjection(alertsProjection)
      .given(raised, escalated)
      .then({ alerts: { 'abc-1': escalatedDoc } });
  });

  it('Given an incident raised, escalated and resolved, Then it is resolved at its highest severity', () => {
    givenProjection(alertsProjection)
      .given(raised, escalated, resolved)
      .then({
        alerts: {
          'abc-1': { ...escalatedDoc, status: 'resolved', resolvedAt: at(2), resolvedValue: 12 },
        },
      });
  });

  it('Given an escalation or resolution of an unknown incident, Then nothing is listed', () => {
    givenProjection(alertsProjection).given(escalated, resolved).then({ alerts: {} });
  });
});
