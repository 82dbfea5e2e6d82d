import { ServerEdgeSynced, type EdgeSyncReason } from '../src/events/edge.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `server_edges`: one per server whose edge proxy Slipway synced: `{id (the server's), routes,
 * configSha256, actions, reason, ok, failure, syncedAt, lastOkAt}`: the last sync that changed
 * something or failed (a periodic check that found nothing to do records nothing).
 */
export interface ServerEdgeDoc extends Doc {
  routes: number;
  configSha256: string;
  actions: string[];
  reason: EdgeSyncReason;
  ok: boolean;
  failure: string | null;
  syncedAt: string;
  /** When the proxy last took the configuration; null if it never did. */
  lastOkAt: string | null;
}

export const serverEdgesProjection: Projection = {
  name: 'server-edges',
  version: 1,
  collections: [{ name: 'server_edges', indexes: [{ fields: ['routes'] }] }],
  handlers: handlersOf(
    on<EventDataOf<typeof ServerEdgeSynced>, ServerEdgeDoc>(ServerEdgeSynced, {
      collection: 'server_edges',
      documentId: (e) => e.data.serverId,
      evolve: (current, { data, recordedAt }) => ({
        id: data.serverId,
        // A failed sync did not change what the proxy routes.
        routes: data.ok ? data.routes : (current?.routes ?? 0),
        configSha256: data.ok ? data.configSha256 : (current?.configSha256 ?? ''),
        actions: data.actions,
        reason: data.reason,
        ok: data.ok,
        failure: data.failure,
        syncedAt: recordedAt,
        lastOkAt: data.ok ? recordedAt : (current?.lastOkAt ?? null),
      }),
    }),
  ),
};
