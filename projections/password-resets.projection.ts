import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/** `password_resets`: `{id: keyed digest of the link token, userId, expiresAt, completedAt}`. */
export interface PasswordResetDoc extends Doc {
  userId: string;
  expiresAt: string;
  completedAt: string | null;
}

export const passwordResetsProjection: Projection = {
  name: 'password_resets',
  version: 1,
  collections: [{ name: 'password_resets', indexes: [{ fields: ['userId'] }] }],
  handlers: {
    PasswordResetRequested: [
      {
        collection: 'password_resets',
        documentId: (e) => String(e.data.tokenDigest),
        evolve: (_c, e): PasswordResetDoc => ({
          id: String(e.data.tokenDigest),
          userId: String(e.data.userId),
          expiresAt: String(e.data.expiresAt),
          completedAt: null,
        }),
      },
    ],
    PasswordResetCompleted: [
      {
        collection: 'password_resets',
        documentId: (e) => String(e.data.tokenDigest),
        evolve: (c, e) => (c ? { ...c, completedAt: e.recordedAt } : null),
      },
    ],
  },
};
