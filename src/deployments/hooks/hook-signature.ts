import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A delivery older or newer than this (by its signed timestamp) is refused as stale. */
export const HOOK_WINDOW_SECONDS = 300;

export type HeaderReader = (name: string) => string | undefined;

export interface VerifiedDelivery {
  form: 'github' | 'slipway';
  deliveryId: string;
  /** GitHub's `X-GitHub-Event` (e.g. `push`, `ping`, `registry_package`); null otherwise. */
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

/**
 * Checks an inbound delivery's signature. Two forms:
 * - Slipway's: `X-Slipway-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`,
 *   `X-Slipway-Timestamp: <unix seconds>` (within 5 minutes of now), `X-Slipway-Delivery: <id>`;
 * - GitHub's: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, body)>` and
 *   `X-GitHub-Delivery: <id>`. GitHub signs no timestamp: its deliveries are held to the window
 *   only when they also carry a signed `X-Slipway-Timestamp` (never, from GitHub itself).
 * Neither form signs its delivery id, so a replay is recognised by `digest` (the signed bytes),
 * which the caller claims once per hook. Pure: the caller passes the clock.
 */
export function verifyHookSignature(
  header: HeaderReader,
  body: Buffer,
  secret: string,
  nowMs: number,
): VerifiedDelivery | SignatureRefusal {
  const slipway = header('x-slipway-signature');
  const github = header('x-hub-signature-256');
  if (slipway !== undefined) {
    const timestamp = header('x-slipway-timestamp') ?? '';
    const deliveryId = header('x-slipway-delivery') ?? '';
    if (!/^\d{1,12}$/.test(timestamp) || !DELIVERY_ID.test(deliveryId)) {
      return {
        refused: 'unsigned',
        message: 'X-Slipway-Timestamp (unix seconds) and X-Slipway-Delivery are required',
      };
    }
    const signed = Buffer.concat([Buffer.from(`${timestamp}.`), body]);
    if (!matches(hmacHex(secret, signed), slipway)) {
      return { refused: 'forged', message: 'The signature does not match this hook' };
    }
    if (Math.abs(nowMs / 1000 - Number(timestamp)) > HOOK_WINDOW_SECONDS) {
      return { refused: 'stale', message: 'The delivery is outside the 5-minute window' };
    }
    return { form: 'slipway', deliveryId, event: null, digest: sha256Hex(signed) };
  }
  if (github !== undefined) {
    const deliveryId = header('x-github-delivery') ?? '';
    if (!DELIVERY_ID.test(deliveryId)) {
      return { refused: 'unsigned', message: 'X-GitHub-Delivery is required' };
    }
    if (!matches(hmacHex(secret, body), github)) {
      return { refused: 'forged', message: 'The signature does not match this hook' };
    }
    const event = header('x-github-event') ?? null;
    return {
      form: 'github',
      deliveryId,
      event: event && /^[a-z_]{1,64}$/.test(event) ? event : null,
      digest: sha256Hex(body),
    };
  }
  return {
    refused: 'unsigned',
    message: 'Sign the delivery: X-Slipway-Signature or X-Hub-Signature-256',
  };
}
