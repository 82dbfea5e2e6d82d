import type { CollectionSpec, Doc } from '../../readstore/read-store.port.js';

export const DELIVERIES = 'notification_deliveries';
export const OUTBOX_CHECKPOINTS = 'notification_outbox';

/** The consumer's position (`OutboxCheckpoint` in notification-outbox.ts). */
export const OUTBOX_COLLECTION: CollectionSpec = { name: OUTBOX_CHECKPOINTS };

/** Created by the consumer (NotificationOutbox), updated by the DeliverySender. */
export const DELIVERIES_COLLECTION: CollectionSpec = {
  name: DELIVERIES,
  indexes: [{ fields: ['status', 'nextAttemptAt'] }, { fields: ['channelId', 'createdAt'] }],
};

/**
 * `notification_deliveries` (not a projection: written by the delivery consumer, like
 * `deployment_logs`): one per event and channel, `id` = `<eventId>:<channelId>`, so handling an
 * event again changes nothing.
 */
export interface DeliveryDoc extends Doc {
  channelId: string;
  subject: string;
  eventId: string;
  eventType: string;
  position: number;
  /** The test it answers, for `testNotificationChannel`; null otherwise. */
  testId: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
  /** HTTP status of the last answer (webhook, slack); null for email or no answer. */
  lastStatusCode: number | null;
  nextAttemptAt: string;
  createdAt: string;
  deliveredAt: string | null;
  payload: Record<string, unknown>;
}

/** The delay before attempt `attempts + 1`: doubling from the base, at most an hour. */
export function retryDelayMs(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * Where the notification sender's lease is kept (several replicas only): in the primary store
 * beside the deliveries, so every process sending from them shares it, even replicas building
 * another set of read models (a blue-green rebuild).
 */
export const SENDER_LEASES: CollectionSpec = { name: 'sender_leases' };
