import { PasswordResetCompleted, PasswordResetRequested } from '../src/events/identity.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/** `password_resets`: `{id: keyed digest of the link token, userId, expiresAt, completedAt}`. */
export interface PasswordResetDoc extends Doc {
  userId: string;
  expiresAt: string;
  completedAt: string | null;
}

const byToken = (e: RecordedEvent<{ tokenDigest: string }>) => e.data.tokenDigest;

export const passwordResetsProjection: Projection = {
  name: 'password_resets',
  version: 1,
  collections: [{ name: 'password_resets', indexes: [{ fields: ['userId'] }] }],
  handlers: handlersOf(
    on<EventDataOf<typeof PasswordResetRequested>, PasswordResetDoc>(PasswordResetRequested, {
      collection: 'password_resets',
      documentId: byToken,
      evolve: (_c, { data }) => ({
        id: data.tokenDigest,
        userId: data.userId,
        expiresAt: data.expiresAt,
        completedAt: null,
      }),
    }),
    on<EventDataOf<typeof PasswordResetCompleted>, PasswordResetDoc>(PasswordResetCompleted, {
      collection: 'password_resets',
      documentId: byToken,
      evolve: (c, e) => (c ? { ...c, completedAt: e.recordedAt } : null),
    }),
  ),
};
