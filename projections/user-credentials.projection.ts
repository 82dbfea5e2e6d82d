import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/**
 * `user_credentials`: `{id: userId, email, passwordHash}` for login, apart from `principals`
 * so that reading principals never hands out password hashes.
 */
export interface UserCredentialDoc extends Doc {
  email: string;
  passwordHash: string;
}

export const userCredentialsProjection: Projection = {
  name: 'user_credentials',
  version: 1,
  collections: [{ name: 'user_credentials', indexes: [{ fields: ['email'] }] }],
  handlers: {
    UserSignedUp: [
      {
        collection: 'user_credentials',
        documentId: (e) => String(e.data.userId),
        evolve: (_c, e): UserCredentialDoc => ({
          id: String(e.data.userId),
          email: String(e.data.email),
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
