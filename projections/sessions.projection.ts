import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/**
 * `sessions`: `{id (SHA-256 of the cookie value), userId, mfaVerified, startedAt, expiresAt,
 * endedAt, endReason}`. Idle activity is kept apart, in `session_activity` (not a projection).
 */
export interface SessionDoc extends Doc {
  userId: string;
  /** True only when this session was started by a login that passed the second factor. */
  mfaVerified: boolean;
  startedAt: string;
  expiresAt: string;
  endedAt: string | null;
  endReason: string | null;
}

const bySession = (e: RecordedEvent) => String(e.data.sessionDigest);

export const sessionsProjection: Projection = {
  name: 'sessions',
  version: 1,
  collections: [{ name: 'sessions', indexes: [{ fields: ['userId', 'endedAt'] }] }],
  handlers: {
    SessionStarted: [
      {
        collection: 'sessions',
        documentId: bySession,
        evolve: (_c, e): SessionDoc => ({
          id: String(e.data.sessionDigest),
          userId: String(e.data.userId),
          mfaVerified: e.data.mfaVerified === true,
          startedAt: e.recordedAt,
          expiresAt: String(e.data.expiresAt),
          endedAt: null,
          endReason: null,
        }),
      },
    ],
    SessionEnded: [
      {
        collection: 'sessions',
        documentId: bySession,
        evolve: (c, e) =>
          c
            ? {
                ...c,
                endedAt: c.endedAt ?? e.recordedAt,
                endReason: c.endReason ?? String(e.data.reason),
              }
            : null,
      },
    ],
  },
};
