import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { DeployHookForm } from '../../events/notifications.events.js';

/** A delivery older or newer than this (by its signed timestamp) is refused as stale. */
export const HOOK_WINDOW_SECONDS = 300;

export type HeaderReader = (name: string) => string | undefined;

export interface VerifiedDelivery {
  form: DeployHookForm;
  deliveryId: string;
  /** The sender's event: GitHub's `X-GitHub-Event` (`push`, `ping`, `package`…), GitLab's. */
  event: string | null;
  /**
   * sha256 (hex) of exactly the bytes the signature covers: what identifies the delivery, since
   * its delivery id header is not signed and can be changed at will by whoever resends it.
   */
  digest: string;
}

export type SignatureRefusal =
  | { refused: 'unsigned'; message: string }
  | { refused: 'forged'; message: string }
  | { refused: 'stale'; message: string };

const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SIGNATURE = /^sha256=([a-f0-9]{64})$/;

export function hmacHex(secret: string, payload: Buffer | string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function matches(expectedHex: string, header: string): boolean {
  const given = SIGNATURE.exec(header.trim().toLowerCase());
  if (!given) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(given[1], 'hex'));
}

/** A delivery posted to a hook's unsigned URL (`…/hooks/<id>/<token>`). */
export interface UrlDelivery {
  hookId: string;
  token: string;
  /** Whether the hook was made to take unsigned deliveries. */
  allowed: boolean;
}

/** The token of a hook's unsigned URL: derived from its secret, so nothing more is stored. */
export function unsignedUrlToken(secret: string, hookId: string): string {
  return createHmac('sha256', secret).update(`unsigned-url:${hookId}`).digest('base64url');
}

const sameText = (a: string, b: string) => {
  const [x, y] = [createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest()];
  return timingSafeEqual(x, y);
};

const UNSIGNED_HINT =
  'Sign the delivery: GitHub or Gitea: the webhook’s “Secret”; GitLab: its “Secret token” or “Signing token”; ' +
  'or X-Slipway-Signature. Docker Hub signs nothing: use a hook made with an unsigned URL';

/**
 * Checks an inbound delivery's credential, in the form its sender uses:
 * - Slipway's: `X-Slipway-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`,
 *   `X-Slipway-Timestamp: <unix seconds>` (within 5 minutes of now), `X-Slipway-Delivery: <id>`;
 * - GitHub's (and Gitea's): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, body)>`, the
 *   delivery id in `X-GitHub-Delivery` (`X-Gitea-Delivery`). No timestamp is signed;
 * - Standard Webhooks (GitLab's signing token): `webhook-signature: v1,<base64 HMAC-SHA256(key,
 *   id.timestamp.body)>` with `webhook-id` and `webhook-timestamp` (within 5 minutes), the key
 *   the secret's bytes after `whsec_`;
 * - GitLab's secret token: `X-Gitlab-Token` equal to the secret (weaker: nothing is signed);
 * - Docker Hub's unsigned deliveries: only at the hook's unsigned URL, whose last segment is a
 *   token derived from the secret, and only for a hook made to take them.
 * Delivery ids are not signed, so a replay is recognised by `digest` (the signed bytes, or the
 * body), which the caller claims once per hook. Each refusal names the sender's setting that
 * fixes it. Pure: the caller passes the clock.
 */
export function verifyHookSignature(
  header: HeaderReader,
  body: Buffer,
  secret: string,
  nowMs: number,
  url?: UrlDelivery,
): VerifiedDelivery | SignatureRefusal {
  if (url) return verifyUrl(url, body, secret);
  const slipway = header('x-slipway-signature');
  const github = header('x-hub-signature-256');
  const standard = header('webhook-signature');
  const gitlab = header('x-gitlab-token');
  if (slipway !== undefined) return verifySlipway(header, body, secret, nowMs, slipway);
  if (github !== undefined) return verifyGithub(header, body, secret, github);
  if (standard !== undefined) return verifyStandard(header, body, secret);
  if (gitlab !== undefined) {
    if (!sameText(gitlab, secret))
      return {
        refused: 'forged',
        message: 'X-Gitlab-Token is not this hook’s secret: set the webhook’s “Secret token” to it',
      };
    return {
      form: 'gitlab',
      deliveryId: gitlabDelivery(header, body),
      event: gitlabEvent(header),
      digest: sha256Hex(body),
    };
  }
  return { refused: 'unsigned', message: UNSIGNED_HINT };
}

function verifySlipway(
  header: HeaderReader,
  body: Buffer,
  secret: string,
  nowMs: number,
  signature: string,
): VerifiedDelivery | SignatureRefusal {
  const timestamp = header('x-slipway-timestamp') ?? '';
  const deliveryId = header('x-slipway-delivery') ?? '';
  if (!/^\d{1,12}$/.test(timestamp) || !DELIVERY_ID.test(deliveryId)) {
    return {
      refused: 'unsigned',
      message: 'X-Slipway-Timestamp (unix seconds) and X-Slipway-Delivery are required',
    };
  }
  const signed = Buffer.concat([Buffer.from(`${timestamp}.`), body]);
  if (!matches(hmacHex(secret, signed), signature)) {
    return { refused: 'forged', message: 'The signature does not match this hook' };
  }
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > HOOK_WINDOW_SECONDS) {
    return { refused: 'stale', message: 'The delivery is outside the 5-minute window' };
  }
  return { form: 'slipway', deliveryId, event: null, digest: sha256Hex(signed) };
}

function verifyGithub(
  header: HeaderReader,
  body: Buffer,
  secret: string,
  signature: string,
): VerifiedDelivery | SignatureRefusal {
  const deliveryId = header('x-github-delivery') ?? header('x-gitea-delivery') ?? '';
  if (!DELIVERY_ID.test(deliveryId)) {
    return { refused: 'unsigned', message: 'X-GitHub-Delivery is required' };
  }
  if (!matches(hmacHex(secret, body), signature)) {
    return {
      refused: 'forged',
      message:
        'X-Hub-Signature-256 does not match this hook: set the webhook’s “Secret” to the hook’s secret',
    };
  }
  const event = header('x-github-event') ?? header('x-gitea-event') ?? null;
  return {
    form: 'github',
    deliveryId,
    event: event && /^[a-z_]{1,64}$/.test(event) ? event : null,
    digest: sha256Hex(body),
  };
}

function verifyStandard(
  header: HeaderReader,
  body: Buffer,
  secret: string,
): VerifiedDelivery | SignatureRefusal {
  const id = header('webhook-id') ?? '';
  const timestamp = header('webhook-timestamp') ?? '';
  if (!DELIVERY_ID.test(id) || !/^\d{1,12}$/.test(timestamp))
    return { refused: 'unsigned', message: 'webhook-id and webhook-timestamp are required' };
  // The key is the secret's bytes after `whsec_` (base64, either alphabet), as GitLab's is.
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  try {
    new Webhook(key, { format: 'raw' }).verify(
      body,
      {
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': header('webhook-signature') ?? '',
      },
      { jsonParse: false },
    );
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return /too (old|new)/.test(error.message)
      ? { refused: 'stale', message: 'The delivery is outside the 5-minute window' }
      : {
          refused: 'forged',
          message:
            'webhook-signature does not match this hook: set the webhook’s “Signing token” to the hook’s secret',
        };
  }
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  return {
    form: 'standard',
    deliveryId: id,
    event: gitlabEvent(header),
    digest: sha256Hex(signed),
  };
}

function verifyUrl(
  url: UrlDelivery,
  body: Buffer,
  secret: string,
): VerifiedDelivery | SignatureRefusal {
  if (!url.allowed)
    return {
      refused: 'unsigned',
      message:
        'This hook takes signed deliveries only: create one with an unsigned URL for Docker Hub',
    };
  if (!sameText(url.token, unsignedUrlToken(secret, url.hookId)))
    return { refused: 'forged', message: 'This is not the hook’s unsigned URL' };
  const digest = sha256Hex(body);
  return { form: 'url', deliveryId: digest.slice(0, 32), event: null, digest };
}

/** GitLab's `Idempotency-Key` (or event UUID) names a delivery; else its body's digest. */
function gitlabDelivery(header: HeaderReader, body: Buffer): string {
  const id = header('idempotency-key') ?? header('x-gitlab-event-uuid') ?? '';
  return DELIVERY_ID.test(id) ? id : sha256Hex(body).slice(0, 32);
}

/** GitLab's `X-Gitlab-Event` (`Push Hook`, `Tag Push Hook`…), as a word: `tag_push_hook`. */
function gitlabEvent(header: HeaderReader): string | null {
  const event = header('x-gitlab-event');
  return event && /^[A-Za-z ]{1,64}$/.test(event) ? event.toLowerCase().replaceAll(' ', '_') : null;
}
