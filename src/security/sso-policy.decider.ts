import type { Decider, EventLike } from '../storage/decider.js';
import { SsoPolicyChanged } from '../events/security.events.js';
import { conflict } from '../common/app-error.js';

export interface SsoPolicyState {
  required: boolean;
}

export interface SsoPolicyCommand {
  required: boolean;
  /** Enabled identity providers now: requiring SSO with none would lock out everyone but owners. */
  enabledProviders: number;
}

/** Stream `team-security`: whether humans sign in only through an identity provider. */
export const ssoPolicyDecider: Decider<SsoPolicyState, SsoPolicyCommand> = {
  initialState: () => ({ required: false }),
  evolve: (state: SsoPolicyState, event: EventLike) =>
    event.type === SsoPolicyChanged.type
      ? { required: SsoPolicyChanged.dataOf(event).required }
      : state,
  decide: (command, state) => {
    if (command.required === state.required) return [];
    if (command.required && command.enabledProviders === 0) {
      throw conflict('Configure and enable an identity provider before requiring single sign-on');
    }
    return [SsoPolicyChanged({ required: command.required, previous: state.required })];
  },
};
