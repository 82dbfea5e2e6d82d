import { conflict } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import type { Decider } from '../storage/decider.js';
import { UserSignedUp } from '../events/identity.events.js';

export interface MemberEmailState {
  taken: boolean;
}

/** The sign-up the team decider made (viewer), to be recorded under its email. */
export interface RecordSignUp {
  signedUp: PendingEvent;
}

export const EMAIL_TAKEN = 'An account with this email already exists';

/**
 * One email address, on the stream of its keyed digest: the first sign-up claims it, so two
 * accounts never share an email, without a stream that every sign-up contends on.
 */
export const memberEmailDecider: Decider<MemberEmailState, RecordSignUp> = {
  initialState: () => ({ taken: false }),
  evolve: (state, event) => (event.type === UserSignedUp.type ? { taken: true } : state),
  decide(command, state) {
    if (state.taken) throw conflict(EMAIL_TAKEN);
    return [command.signedUp];
  },
};
