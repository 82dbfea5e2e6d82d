import { describe, it } from '@jest/globals';
import { AlertEscalated, AlertRaised, AlertResolved } from '../../events/alerts.events.js';
import { given } from '../../storage/testing/given.js';
import { alertDecider as alert, type AlertCheck } from './alert.decider.js';

const condition = 'c0ffee';
const facts = {
  kind: 'threshold' as const,
  ruleId: 'r-1',
  serverId: 'srv-1',
  serviceId: null,
  container: null,
  metric: 'cpuPercent',
  value: 85,
  threshold: 80,
  detail: 'CPU at 85% (warning at 80%)',
};
const check = (level: AlertCheck['level'], more: Partial<typeof facts> = {}): AlertCheck => ({
  level,
  condition,
  facts: { ...facts, ...more },
});

const raised = AlertRaised({ ...facts, alertId: `${condition}-1`, severity: 'warning' });
const criticalFacts = { ...facts, value: 97, threshold: 95, detail: 'CPU at 97%' };
const escalated = AlertEscalated({
  ...criticalFacts,
  alertId: `${condition}-1`,
  severity: 'critical',
});
const okFacts = { ...facts, value: 20, detail: 'CPU at 20%' };
const resolved = AlertResolved({ ...okFacts, alertId: `${condition}-1` });

describe('alert decider', () => {
  it('Given nothing open, When the condition does not hold, Then nothing', () => {
    given(alert).when(check('ok', okFacts)).thenNothing();
  });

  it('Given nothing open, When a warning is found, Then the first incident is raised', () => {
    given(alert).when(check('warning')).then(raised);
  });

  it('Given nothing open, When a critical is found, Then it is raised critical', () => {
    given(alert)
      .when(check('critical', criticalFacts))
      .then(AlertRaised({ ...criticalFacts, alertId: `${condition}-1`, severity: 'critical' }));
  });

  it('Given an open warning, When it is found again, Then nothing', () => {
    given(alert, raised)
      .when(check('warning', { value: 88 }))
      .thenNothing();
  });

  it('Given an open warning, When critical is found, Then it is escalated once', () => {
    given(alert, raised).when(check('critical', criticalFacts)).then(escalated);
    given(alert, raised, escalated).when(check('critical', criticalFacts)).thenNothing();
  });

  it('Given an open critical, When only a warning is found, Then nothing: it is not over', () => {
    given(alert, raised, escalated).when(check('warning')).thenNothing();
  });

  it('Given an open incident, When the condition stops holding, Then it is resolved once', () => {
    given(alert, raised).when(check('ok', okFacts)).then(resolved);
    given(alert, raised, escalated).when(check('ok', okFacts)).then(resolved);
    given(alert, raised, resolved).when(check('ok', okFacts)).thenNothing();
  });

  it('Given a resolved incident, When the condition holds again, Then a second incident is raised', () => {
    given(alert, raised, escalated, resolved)
      .when(check('warning'))
      .then(AlertRaised({ ...facts, alertId: `${condition}-2`, severity: 'warning' }));
  });
});
