import {
  PasswordChanged,
  UserSignedUp,
  type RecordedUserSignUp,
} from '../src/events/identity.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `user_credentials`: `{id: userId, emailDigest, email (v1 only), passwordHash}` for login, apart from `principals`
 * so that reading principals never hands out password hashes.
 */
export interface UserCredentialDoc extends Doc {
  /** Keyed digest of the email (v2 sign-ups); null for v1 sign-ups, found by `email`. */
  emailDigest: string | null;
  /** Plaintext email of a v1 sign-up only (v2 keeps no plaintext here). */
  email: string | null;
  passwordHash: string;
}

const byUser = (e: RecordedEvent<{ userId: string }>) => e.data.userId;

export const userCredentialsProjection: Projection = {
  name: 'user_credentials',
  version: 2,
  collections: [
    { name: 'user_credentials', indexes: [{ fields: ['emailDigest'] }, { fields: ['email'] }] },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof UserSignedUp>, UserCredentialDoc>(UserSignedUp, {
      collection: 'user_credentials',
      documentId: byUser,
      evolve: (_c, { data }: RecordedEvent<RecordedUserSignUp>) => ({
        id: data.userId,
        emailDigest: data.emailDigest ?? null,
        email: typeof data.email === 'string' ? data.email : null,
        passwordHash: data.passwordHash,
      }),
    }),
    on<EventDataOf<typeof PasswordChanged>, UserCredentialDoc>(PasswordChanged, {
      collection: 'user_credentials',
      documentId: byUser,
      evolve: (c, e) => (c ? { ...c, passwordHash: e.data.passwordHash } : null),
    }),
  ),
};
