import {
  NotificationChannelCreated,
  NotificationChannelUpdated,
  type ChannelKind,
  type NotificationSubject,
} from '../src/events/notifications.events.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `notification_channels`: `{id, name, kind, targetCiphertext, targetHint, secretCiphertext,
 * subscriptions, enabled, createdPosition, createdAt, createdBy, updatedAt}`. The target and the signing secret
 * stay sealed; reads show `targetHint` only.
 */
export interface NotificationChannelDoc extends Doc {
  name: string;
  kind: ChannelKind;
  targetCiphertext: string;
  targetHint: string;
  secretCiphertext: string | null;
  subscriptions: NotificationSubject[];
  enabled: boolean;
  /** Global position of its creation: it hears only of later events. */
  createdPosition: number;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
}

export const notificationChannelsProjection: Projection = {
  name: 'notification_channels',
  version: 1,
  collections: [{ name: 'notification_channels', indexes: [{ fields: ['createdAt'] }] }],
  handlers: handlersOf(
    on(NotificationChannelCreated, {
      collection: 'notification_channels',
      documentId: (e) => e.data.channelId,
      evolve: (_c, { data, recordedAt, metadata, position }): NotificationChannelDoc => ({
        id: data.channelId,
        name: data.name,
        kind: data.kind,
        targetCiphertext: data.targetCiphertext,
        targetHint: data.targetHint,
        secretCiphertext: data.secretCiphertext,
        subscriptions: data.subscriptions,
        enabled: true,
        createdPosition: Number(position),
        createdAt: recordedAt,
        createdBy: metadata.actor.principalId,
        updatedAt: recordedAt,
      }),
    }),
    on(NotificationChannelUpdated, {
      collection: 'notification_channels',
      documentId: (e) => e.data.channelId,
      evolve: (current: NotificationChannelDoc | null, { data, recordedAt }) =>
        current ? { ...current, ...data.changes, updatedAt: recordedAt } : null,
    }),
  ),
};
