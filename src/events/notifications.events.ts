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
  | 'token.expiring'
  | 'certificate.failed'
  | 'certificate.expiring'
  | 'security.break-glass'
  | 'job.failed'
  | 'alert.raised'
  | 'alert.resolved';

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

// Stream `deploy-hook-<hookId>`: created, accepted deliveries (in order), revoked.
/** A rule of an inbound hook: what a push or tag (matching `pattern`) deploys (`image`). */
export interface DeployHookRule {
  source: 'tag' | 'image';
  /** Glob over the tag: letters, digits, `._-` and `*` (any run of those). */
  pattern: string;
  /** Image reference template; `{tag}` is the tag, `{version}` the tag without a leading `v`. */
  image: string;
  /**
   * May this rule move the service back to an image the hook has already moved past? Absent
   * (rules made before it existed) and false: no, such a delivery is refused.
   */
  allowRollback?: boolean;
}

export const DeployHookCreated = defineEvent<{
  hookId: string;
  serviceId: string;
  name: string;
  secretCiphertext: string;
  rules: DeployHookRule[];
  /**
   * Takes unsigned deliveries (Docker Hub signs nothing) at a URL that carries a token derived
   * from the secret; absent (hooks made before it existed) and false: signed deliveries only.
   */
  unsignedUrl?: boolean;
}>('DeployHookCreated', 1);

/**
 * How a delivery proved it came from the hook's sender: Slipway's signature, GitHub's or Gitea's
 * HMAC, GitLab's token, a Standard Webhooks signature (GitLab's signing token), or the token in
 * an unsigned URL (Docker Hub).
 */
export type DeployHookForm = 'slipway' | 'github' | 'gitlab' | 'standard' | 'url';

export const DeployHookRevoked = defineEvent<{ hookId: string }>('DeployHookRevoked', 1);

export type DeployHookDeliveryData = {
  hookId: string;
  serviceId: string;
  deliveryId: string;
  /** sha256 (hex) of the signed bytes; null in version 1 (kept on a stream per delivery id). */
  digest: string | null;
  form: DeployHookForm;
  source: 'tag' | 'image';
  tag: string;
  imageRef: string;
};

/**
 * A delivery the hook let through to `triggerDeploy`, on the hook's own stream, so that the
 * images it deployed are there in order.
 */
export const DeployHookDeliveryAccepted = defineEvent<DeployHookDeliveryData>(
  'DeployHookDeliveryAccepted',
  2,
  // Version 1 had the same fields but the digest.
  (data) => ({ ...(data as Omit<DeployHookDeliveryData, 'digest'>), digest: null }),
);

// Stream `deploy-hook-delivery-<hookId>-<digest>`: appended once, before the delivery goes any
// further; a second delivery of the same signed bytes finds the stream taken and is a replay.
// (Streams of this name from before were keyed by sha256(delivery id) and held version 1 of
// `DeployHookDeliveryAccepted`; a delivery id is never a delivery's signed bytes, so the two
// kinds of key never meet.)
export const DeployHookDeliveryClaimed = defineEvent<{
  hookId: string;
  /** sha256 (hex) of exactly what the signature covers (see hook-signature.ts). */
  digest: string;
  /** The sender's delivery id, for the record: it is not signed, so never the claim's key. */
  deliveryId: string;
  form: DeployHookForm;
}>('DeployHookDeliveryClaimed', 1);

export const deployHookStream = (hookId: string) => `deploy-hook-${hookId}`;
export const deployHookDeliveryStream = (hookId: string, digest: string) =>
  `deploy-hook-delivery-${hookId}-${digest}`;
