import { SessionEnded, SessionStarted } from '../src/events/identity.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `sessions`: `{id (SHA-256 of the cookie value), userId, mfaVerified, method, providerId, amr,
 * startedAt, expiresAt,
 * endedAt, endReason}`. Idle activity is kept apart, in `session_activity` (not a projection).
 */
export interface SessionDoc extends Doc {
  userId: string;
  /** True only when this session was started by a login that passed the second factor. */
  mfaVerified: boolean;
  /** `password`, or `sso` through `providerId` with the provider's `amr`. */
  method: 'password' | 'sso';
  providerId: string | null;
  amr: string[];
  startedAt: string;
  expiresAt: string;
  endedAt: string | null;
  endReason: string | null;
}

/**
 * SessionStarted as recorded: `mfaVerified` came with MFA, in the same schema version, so the
 * sessions recorded before it have none (never verified).
 */
type SessionStartedData =
  | EventDataOf<typeof SessionStarted>
  | (Omit<EventDataOf<typeof SessionStarted>, 'mfaVerified'> & { mfaVerified?: undefined });

const bySession = (e: RecordedEvent<{ sessionDigest: string }>) => e.data.sessionDigest;

export const sessionsProjection: Projection = {
  name: 'sessions',
  version: 2,
  collections: [{ name: 'sessions', indexes: [{ fields: ['userId', 'endedAt'] }] }],
  handlers: handlersOf(
    on<EventDataOf<typeof SessionStarted>, SessionDoc>(SessionStarted, {
      collection: 'sessions',
      documentId: bySession,
      evolve: (_c, { data, recordedAt }: RecordedEvent<SessionStartedData>) => ({
        id: data.sessionDigest,
        userId: data.userId,
        mfaVerified: data.mfaVerified === true,
        method: data.sso ? 'sso' : 'password',
        providerId: data.sso?.providerId ?? null,
        amr: data.sso?.amr ?? [],
        startedAt: recordedAt,
        expiresAt: data.expiresAt,
        endedAt: null,
        endReason: null,
      }),
    }),
    on<EventDataOf<typeof SessionEnded>, SessionDoc>(SessionEnded, {
      collection: 'sessions',
      documentId: bySession,
      evolve: (c, e) =>
        c
          ? { ...c, endedAt: c.endedAt ?? e.recordedAt, endReason: c.endReason ?? e.data.reason }
          : null,
    }),
  ),
};
