import type { NotificationChannelDoc } from '../../projections/notification-channels.projection.js';
import { notFound } from '../common/app-error.js';
import type { ChannelKind, NotificationSubject } from '../events/notifications.events.js';
import type { ReadStore } from '../readstore/read-store.port.js';

/** A channel as the procedures answer it: the target only as its masked hint. */
export interface ChannelView {
  channelId: string;
  name: string;
  kind: ChannelKind;
  target: string;
  subscriptions: NotificationSubject[];
  enabled: boolean;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
}

export function channelView(doc: NotificationChannelDoc): ChannelView {
  return {
    channelId: doc.id,
    name: doc.name,
    kind: doc.kind,
    target: doc.targetHint,
    subscriptions: doc.subscriptions,
    enabled: doc.enabled,
    createdAt: doc.createdAt,
    createdBy: doc.createdBy,
    updatedAt: doc.updatedAt,
  };
}

/** The channel, or NOT_FOUND. */
export async function findChannel(
  reads: ReadStore,
  channelId: string,
): Promise<NotificationChannelDoc> {
  const doc = await reads
    .collection<NotificationChannelDoc>('notification_channels')
    .get(channelId);
  if (!doc) throw notFound('No such notification channel');
  return doc;
}

/** Each subject once, in the order given. */
export const uniqueSubjects = (subjects: NotificationSubject[]) => [...new Set(subjects)];
