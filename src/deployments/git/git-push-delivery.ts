import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { HeaderReader } from '../hooks/hook-signature.js';
import type { GitProvider } from './git-push.js';

/** A delivery whose credential matched the source's webhook secret. */
export interface VerifiedGitDelivery {
  provider: GitProvider;
  /** The provider's delivery id (a redelivery keeps it); a digest prefix when none is sent. */
  deliveryId: string;
  /** The provider's event name: `push`, `ping`, `Push Hook`, `Tag Push Hook`, … */
  event: string | null;
  /** sha256 (hex) of the body: what a replay is recognised by (the id header is not signed). */
  digest: string;
}

export type GitDeliveryRefusal = { refused: 'unsigned' | 'forged'; message: string };

const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const EVENT = /^[A-Za-z _]{1,64}$/;

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest();
const hmac = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest();

/** Compares a hex signature with the expected MAC in constant time; malformed is no match. */
function sameHex(expected: Buffer, given: string): boolean {
  if (!/^[a-f0-9]{64}$/.test(given)) return false;
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/** The first of `names` the delivery carries. */
function first(header: HeaderReader, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = header(name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * Checks a push delivery's credential as its provider sends it:
 * - Gitea and Forgejo: `X-Gitea-Signature` / `X-Forgejo-Signature`, hex HMAC-SHA256 of the body
 *   (checked first: they also send GitHub's headers);
 * - GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`;
 * - GitLab: `X-Gitlab-Token`, the secret itself (GitLab signs nothing), compared in constant time.
 * The body's digest is what a replay is recognised by, whatever id header comes with it. Pure.
 */
/** What each provider's settings call the field that must hold the source's webhook secret. */
const FORGED: Record<GitProvider, string> = {
  github:
    'X-Hub-Signature-256 does not match this source: set the webhook’s “Secret” to the source’s webhook secret',
  gitea:
    'X-Gitea-Signature does not match this source: set the webhook’s “Secret” to the source’s webhook secret',
  gitlab:
    'X-Gitlab-Token is not this source’s webhook secret: set the webhook’s “Secret token” to it',
};

export function verifyGitDelivery(
  header: HeaderReader,
  body: Buffer,
  secret: string,
): VerifiedGitDelivery | GitDeliveryRefusal {
  const digest = sha256(body).toString('hex');
  const gitea = first(header, 'x-gitea-signature', 'x-forgejo-signature');
  const github = header('x-hub-signature-256');
  const gitlab = header('x-gitlab-token');
  let provider: GitProvider;
  let valid: boolean;
  if (gitea !== undefined) {
    provider = 'gitea';
    valid = sameHex(hmac(secret, body), gitea.trim().toLowerCase());
  } else if (github !== undefined) {
    provider = 'github';
    const given = /^sha256=(.*)$/.exec(github.trim().toLowerCase());
    valid = !!given && sameHex(hmac(secret, body), given[1]);
  } else if (gitlab !== undefined) {
    provider = 'gitlab';
    valid = timingSafeEqual(sha256(gitlab), sha256(secret));
  } else {
    return {
      refused: 'unsigned',
      message:
        'Sign the delivery: give the webhook the source’s webhook secret (GitHub and Gitea: “Secret”; GitLab: “Secret token”)',
    };
  }
  if (!valid) return { refused: 'forged', message: FORGED[provider] };
  const id =
    provider === 'gitea'
      ? first(header, 'x-gitea-delivery', 'x-forgejo-delivery')
      : provider === 'github'
        ? header('x-github-delivery')
        : header('x-gitlab-event-uuid');
  const event =
    provider === 'gitea'
      ? first(header, 'x-gitea-event', 'x-forgejo-event')
      : provider === 'github'
        ? header('x-github-event')
        : header('x-gitlab-event');
  return {
    provider,
    deliveryId: id && DELIVERY_ID.test(id) ? id : digest.slice(0, 32),
    event: event && EVENT.test(event) ? event : null,
    digest,
  };
}
