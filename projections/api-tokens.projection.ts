import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/**
 * `api_tokens`: token metadata, never values. `{id, digest (SHA-256 of the value), principalId,
 * name, scopes, lane, createdAt, createdBy, expiresAt, revokedAt, rotatedFrom, replacedBy,
 * refuseAfter}`. Last use is kept apart, in `token_usage` (not a projection), so that using a
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
}

const byToken = (e: RecordedEvent) => String(e.data.tokenId);

export const apiTokensProjection: Projection = {
  name: 'api_tokens',
  version: 1,
  collections: [
    {
      name: 'api_tokens',
      indexes: [{ fields: ['digest'] }, { fields: ['principalId', 'createdAt'] }],
    },
  ],
  handlers: {
    TokenMinted: [
      {
        collection: 'api_tokens',
        documentId: byToken,
        evolve: (_c, e): ApiTokenDoc => ({
          id: String(e.data.tokenId),
          digest: String(e.data.digest),
          principalId: String(e.data.principalId),
          name: String(e.data.name),
          scopes: e.data.scopes as string[],
          lane: String(e.data.lane),
          createdAt: e.recordedAt,
          createdBy: String(e.data.createdBy),
          expiresAt: (e.data.expiresAt as string | null) ?? null,
          revokedAt: null,
          rotatedFrom: (e.data.rotatedFrom as string | null) ?? null,
          replacedBy: null,
          refuseAfter: null,
        }),
      },
    ],
    TokenRevoked: [
      {
        collection: 'api_tokens',
        documentId: byToken,
        evolve: (c, e) => (c ? { ...c, revokedAt: c.revokedAt ?? e.recordedAt } : null),
      },
    ],
    TokenRotated: [
      {
        collection: 'api_tokens',
        documentId: byToken,
        evolve: (c, e) =>
          c
            ? {
                ...c,
                replacedBy: String(e.data.replacedBy),
                refuseAfter: String(e.data.refuseAfter),
              }
            : null,
      },
    ],
  },
};
