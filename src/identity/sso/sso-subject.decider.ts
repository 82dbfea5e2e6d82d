import { conflict } from '../../common/app-error.js';
import { SsoIdentityLinked } from '../../events/sso.events.js';
import type { Decider, EventLike } from '../../storage/decider.js';

export interface SsoSubjectState {
  userId: string | null;
}

export interface LinkSubject {
  userId: string;
  providerId: string;
  subjectDigest: string;
  through: 'invite' | 'domain' | 'email';
}

/** Stream `sso-subject-<digest>`: a provider's subject is one member, for good. */
export const ssoSubjectDecider: Decider<SsoSubjectState, LinkSubject> = {
  initialState: () => ({ userId: null }),
  evolve: (state, event: EventLike) =>
    event.type === SsoIdentityLinked.type
      ? { userId: SsoIdentityLinked.dataOf(event).userId }
      : state,
  decide: (command, state) => {
    if (state.userId === command.userId) return [];
    if (state.userId !== null) throw conflict('This identity is linked to another member');
    return [SsoIdentityLinked(command)];
  },
};
