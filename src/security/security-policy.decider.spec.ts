import { describe, it } from '@jest/globals';
import { MfaPolicyChanged } from '../events/security.events.js';
import { given } from '../storage/testing/given.js';
import { securityPolicyDecider as policy } from './security-policy.decider.js';

describe('team security policy decider', () => {
  it('records a new policy with the one it replaces (optional at first)', () => {
    given(policy)
      .when({ policy: 'privileged' })
      .then(MfaPolicyChanged({ policy: 'privileged', previous: 'optional' }));
  });

  it('records nothing when the policy already has that value', () => {
    given(policy, MfaPolicyChanged({ policy: 'all', previous: 'optional' }))
      .when({ policy: 'all' })
      .thenNothing();
  });

  it('folds every change: the previous value is the latest one', () => {
    given(
      policy,
      MfaPolicyChanged({ policy: 'all', previous: 'optional' }),
      MfaPolicyChanged({ policy: 'privileged', previous: 'all' }),
    )
      .when({ policy: 'optional' })
      .then(MfaPolicyChanged({ policy: 'optional', previous: 'privileged' }));
  });
});
