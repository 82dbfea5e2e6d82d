import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

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

export const userCredentialsProjection: Projection = {
  name: 'user_credentials',
  version: 2,
  collections: [
    { name: 'user_credentials', indexes: [{ fields: ['emailDigest'] }, { fields: ['email'] }] },
  ],
  handlers: {
    UserSignedUp: [
      {
        collection: 'user_credentials',
        documentId: (e) => String(e.data.userId),
        evolve: (_c, e): UserCredentialDoc => ({
          id: String(e.data.userId),
          emailDigest: typeof e.data.emailDigest === 'string' ? e.data.emailDigest : null,
          email: typeof e.data.email === 'string' ? e.data.email : null,
          passwordHash: String(e.data.passwordHash),
        }),
      },
    ],
    PasswordChanged: [
      {
        collection: 'user_credentials',
        documentId: (e) => String(e.data.userId),
        evolve: (c, e) => (c ? { ...c, passwordHash: String(e.data.passwordHash) } : null),
      },
    ],
  },
};
