import { describe, it } from '@jest/globals';
import { SsoPolicyChanged } from '../events/security.events.js';
import { given } from '../storage/testing/given.js';
import { ssoPolicyDecider as policy } from './sso-policy.decider.js';

describe('SSO policy decider', () => {
  it('requires SSO when a provider is enabled, recording what it replaces', () => {
    given(policy)
      .when({ required: true, enabledProviders: 1 })
      .then(SsoPolicyChanged({ required: true, previous: false }));
  });

  it('refuses to require SSO with no enabled provider', () => {
    given(policy).when({ required: true, enabledProviders: 0 }).thenRefused('CONFLICT');
  });

  it('lifts the requirement even with no provider left, and records nothing twice', () => {
    const required = SsoPolicyChanged({ required: true, previous: false });
    given(policy, required)
      .when({ required: false, enabledProviders: 0 })
      .then(SsoPolicyChanged({ required: false, previous: true }));
    given(policy, required).when({ required: true, enabledProviders: 3 }).thenNothing();
  });
});
