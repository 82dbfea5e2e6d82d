import { createHash } from 'node:crypto';
import { defineEvent } from '../eventstore/define-event.js';

export type ChannelKind = 'webhook' | 'email' | 'slack';

/**
 * What a channel is subscribed to (see src/notifications/notification-subjects.ts for the event
 * types behind each subject).
 */
export type NotificationSubject =
  | 'deployment.succeeded'
  | 'deployment.failed'
  | 'deployment.cancelled'
  | 'approval.requested'
  | 'approval.decided'
  | 'backup.failed'
  | 'audit.verification-failed'
  | 'token.expiring';

// Stream `notification-channel-<channelId>`.
/**
 * A notification channel. The target (URL or address) is sealed: a Slack incoming-webhook URL is
 * itself a credential. `targetHint` is what reads show (scheme and host, or the masked address).
 * `secretCiphertext`: the sealed signing secret of a webhook channel (null for the other kinds).
 */
export const NotificationChannelCreated = defineEvent<{
  channelId: string;
  name: string;
  kind: ChannelKind;
  targetCiphertext: string;
  targetHint: string;
  secretCiphertext: string | null;
  subscriptions: NotificationSubject[];
}>('NotificationChannelCreated', 1);

export const NotificationChannelUpdated = defineEvent<{
  channelId: string;
  changes: {
    name?: string;
    targetCiphertext?: string;
    targetHint?: string;
    subscriptions?: NotificationSubject[];
    enabled?: boolean;
  };
}>('NotificationChannelUpdated', 1);

/** Someone asked for a test message on the channel; the delivery consumer sends it. */
export const NotificationChannelTestRequested = defineEvent<{ channelId: string; testId: string }>(
  'NotificationChannelTestRequested',
  1,
);

// Stream `token-expiry-notice-<tokenId>`: written once per token by the periodic scan.
/** A token expires within 7 days: noticed once, so that channels hear of it once. */
export const TokenExpiryNoticed = defineEvent<{
  tokenId: string;
  tokenName: string;
  principalId: string;
  expiresAt: string;
}>('TokenExpiryNoticed', 1);

export const notificationChannelStream = (channelId: string) => `notification-channel-${channelId}`;
export const tokenExpiryNoticeStream = (tokenId: string) => `token-expiry-notice-${tokenId}`;

// Stream `deploy-hook-<hookId>`.
/** A rule of an inbound hook: what a push or tag (matching `pattern`) deploys (`image`). */
export interface DeployHookRule {
  source: 'tag' | 'image';
  /** Glob over the tag: letters, digits, `._-` and `*` (any run of those). */
  pattern: string;
  /** Image reference template; `{tag}` is the tag, `{version}` the tag without a leading `v`. */
  image: string;
}

export const DeployHookCreated = defineEvent<{
  hookId: string;
  serviceId: string;
  name: string;
  secretCiphertext: string;
  rules: DeployHookRule[];
}>('DeployHookCreated', 1);

export const DeployHookRevoked = defineEvent<{ hookId: string }>('DeployHookRevoked', 1);

// Stream `deploy-hook-delivery-<hookId>-<sha256(deliveryId)>`: appended once; a second
// delivery with the same id finds the stream taken and is refused as a replay.
export const DeployHookDeliveryAccepted = defineEvent<{
  hookId: string;
  serviceId: string;
  deliveryId: string;
  form: 'github' | 'slipway';
  source: 'tag' | 'image';
  tag: string;
  imageRef: string;
}>('DeployHookDeliveryAccepted', 1);

export const deployHookStream = (hookId: string) => `deploy-hook-${hookId}`;
export const deployHookDeliveryStream = (hookId: string, deliveryId: string) =>
  `deploy-hook-delivery-${hookId}-${createHash('sha256').update(deliveryId).digest('hex')}`;
