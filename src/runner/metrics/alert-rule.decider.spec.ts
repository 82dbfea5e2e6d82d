import { describe, it } from '@jest/globals';
import { AlertRuleRemoved, AlertRuleSet } from '../../events/alerts.events.js';
import { given } from '../../storage/testing/given.js';
import { alertRuleDecider as rule } from './alert-rule.decider.js';

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
const set = AlertRuleSet(settings);
const removed = AlertRuleRemoved({ ruleId: 'r-1', serverId: null, serviceId: 's-1' });

describe('alert rule decider', () => {
  it('Given nothing, When a rule is set, Then it is', () => {
    given(rule).when({ kind: 'set', settings }).then(set);
  });

  it('Given a rule, When set the same, Then nothing', () => {
    given(rule, set).when({ kind: 'set', settings }).thenNothing();
  });

  it('Given a rule, When set changed, Then it is set anew', () => {
    const changed = { ...settings, warning: 70, enabled: false };
    given(rule, set).when({ kind: 'set', settings: changed }).then(AlertRuleSet(changed));
  });

  it('Given a rule on a service, When moved to another service or to a server, Then it is refused', () => {
    given(rule, set)
      .when({ kind: 'set', settings: { ...settings, serviceId: 's-2' } })
      .thenRefused('CONFLICT', /stays with what it watches/);
    given(rule, set)
      .when({ kind: 'set', settings: { ...settings, serviceId: null, serverId: 'srv-1' } })
      .thenRefused('CONFLICT', /stays with what it watches/);
  });

  it('Given a rule on a server, When moved to another server, Then it is refused', () => {
    const onServer = { ...settings, serviceId: null, serverId: 'srv-1' };
    given(rule, AlertRuleSet(onServer))
      .when({ kind: 'set', settings: { ...onServer, serverId: 'srv-2' } })
      .thenRefused('CONFLICT');
  });

  it('Given a rule, When removed, Then it is removed with what it watched', () => {
    given(rule, set).when({ kind: 'remove', ruleId: 'r-1' }).then(removed);
  });

  it('Given a removed rule, When set or removed again, Then it is gone for good', () => {
    given(rule, set, removed)
      .when({ kind: 'set', settings })
      .thenRefused('NOT_FOUND', /No such alert rule/);
    given(rule, set, removed)
      .when({ kind: 'remove', ruleId: 'r-1' })
      .thenRefused('NOT_FOUND', /No such alert rule/);
  });

  it('Given nothing, When an unknown rule is removed, Then it is not found', () => {
    given(rule)
      .when({ kind: 'remove', ruleId: 'r-9' })
      .thenRefused('NOT_FOUND', /No such/);
  });
});
