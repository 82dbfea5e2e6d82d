import { TokenMinted, TokenRevoked, TokenRotated } from '../src/events/access.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `api_tokens`: token metadata, never values. `{id, digest (SHA-256 of the value), principalId,
 * name, scopes, lane, createdAt, createdBy, expiresAt, revokedAt, rotatedFrom, replacedBy,
 * refuseAfter, projects (null: not limited to projects)}`. Last use is kept apart, in `token_usage` (not a projection), so that using a
 * token never writes an event.
 */
export interface ApiTokenDoc extends Doc {
  digest: string;
  principalId: string;
  name: string;
  scopes: string[];
  lane: string;
  createdAt: string;
  createdBy: string;
  expiresAt: string | null;
  revokedAt: string | null;
  rotatedFrom: string | null;
  replacedBy: string | null;
  refuseAfter: string | null;
  /** The projects the token is limited to; null: every project its principal reaches. */
  projects: string[] | null;
}

const byToken = (e: RecordedEvent<{ tokenId: string }>) => e.data.tokenId;

export const apiTokensProjection: Projection = {
  name: 'api_tokens',
  version: 2,
  collections: [
    {
      name: 'api_tokens',
      indexes: [{ fields: ['digest'] }, { fields: ['principalId', 'createdAt'] }],
    },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof TokenMinted>, ApiTokenDoc>(TokenMinted, {
      collection: 'api_tokens',
      documentId: byToken,
      evolve: (_c, { data, recordedAt }) => ({
        id: data.tokenId,
        digest: data.digest,
        principalId: data.principalId,
        name: data.name,
        scopes: data.scopes,
        lane: data.lane,
        createdAt: recordedAt,
        createdBy: data.createdBy,
        expiresAt: data.expiresAt ?? null,
        revokedAt: null,
        rotatedFrom: data.rotatedFrom ?? null,
        replacedBy: null,
        refuseAfter: null,
        projects: data.projects ?? null,
      }),
    }),
    on<EventDataOf<typeof TokenRevoked>, ApiTokenDoc>(TokenRevoked, {
      collection: 'api_tokens',
      documentId: byToken,
      evolve: (c, e) => (c ? { ...c, revokedAt: c.revokedAt ?? e.recordedAt } : null),
    }),
    on<EventDataOf<typeof TokenRotated>, ApiTokenDoc>(TokenRotated, {
      collection: 'api_tokens',
      documentId: byToken,
      evolve: (c, e) =>
        c ? { ...c, replacedBy: e.data.replacedBy, refuseAfter: e.data.refuseAfter } : null,
    }),
  ),
};
