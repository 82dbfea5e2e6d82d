import type { Decider, EventLike } from '../storage/decider.js';
import { MfaPolicyChanged, type MfaPolicy } from '../events/security.events.js';

export interface SecurityState {
  policy: MfaPolicy;
}

/** The team MFA policy; setting the value it already has records nothing. */
export const securityPolicyDecider: Decider<SecurityState, { policy: MfaPolicy }> = {
  initialState: () => ({ policy: 'optional' }),
  evolve: (state: SecurityState, event: EventLike) =>
    event.type === MfaPolicyChanged.type
      ? { policy: MfaPolicyChanged.dataOf(event).policy }
      : state,
  decide: (command, state) =>
    command.policy === state.policy
      ? []
      : [MfaPolicyChanged({ policy: command.policy, previous: state.policy })],
};
