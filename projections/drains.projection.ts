import { DrainConfigured, DrainRemoved } from '../src/events/drains.events.js';
import type { DrainKind, DrainSource } from '../src/events/drains.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `drains`: `{id (the drain id), displayName, kind, endpoint, caCertificate, headerNames,
 * sources, enabled, fromPosition, configuredAt, configuredBy}`. Never the header values. A
 * removed drain has no document. What each drain has delivered is not here: it is not derived
 * from events (see `drain_state` in the primary store).
 */
export interface DrainDoc extends Doc {
  displayName: string;
  kind: DrainKind;
  endpoint: string;
  caCertificate: string | null;
  headerNames: string[];
  sources: DrainSource[];
  enabled: boolean;
  fromPosition: number;
  configuredAt: string;
  configuredBy: string | null;
}

const byDrain = (e: { data: { drainId: string } }) => e.data.drainId;

export const drainsProjection: Projection = {
  name: 'drains',
  version: 1,
  collections: [{ name: 'drains' }],
  handlers: handlersOf(
    on<EventDataOf<typeof DrainConfigured>, DrainDoc>(DrainConfigured, {
      collection: 'drains',
      documentId: byDrain,
      evolve: (_c, { data, metadata, recordedAt }) => ({
        id: data.drainId,
        displayName: data.displayName,
        kind: data.kind,
        endpoint: data.endpoint,
        caCertificate: data.caCertificate,
        headerNames: data.headerNames,
        sources: data.sources,
        enabled: data.enabled,
        fromPosition: data.fromPosition,
        configuredAt: recordedAt,
        configuredBy: metadata.actor.principalId,
      }),
    }),
    on<EventDataOf<typeof DrainRemoved>, DrainDoc>(DrainRemoved, {
      collection: 'drains',
      documentId: byDrain,
      evolve: () => null,
    }),
  ),
};
