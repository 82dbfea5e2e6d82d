import { createHash, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { StartedSession } from '../session-starter.js';

/** How long the CLI has to redeem the hand-off its loopback listener received. */
const HANDOFF_MS = 2 * 60_000;

interface Sealed {
  session: string;
  sessionExpiresAt: string;
  challenge: string;
  expiresAt: number;
}

/**
 * `slipway login --sso`: the session goes to the CLI's loopback listener sealed, and opens only
 * with the PKCE verifier the CLI kept, so another program that catches the redirect gets nothing.
 */
export function sealHandoff(
  box: SecretBox,
  session: StartedSession,
  challenge: string,
  now: number,
): string {
  const sealed: Sealed = {
    session: session.value,
    sessionExpiresAt: session.expiresAt.toISOString(),
    challenge,
    expiresAt: now + HANDOFF_MS,
  };
  return box.seal(JSON.stringify(sealed));
}

/** The session a hand-off holds, when the verifier answers its challenge in time; else null. */
export function openHandoff(
  box: SecretBox,
  handoff: string,
  verifier: string,
  now: number,
): StartedSession | null {
  let sealed: Sealed;
  try {
    sealed = JSON.parse(box.open(handoff)) as Sealed;
  } catch {
    return null;
  }
  if (typeof sealed.expiresAt !== 'number' || sealed.expiresAt <= now) return null;
  const answer = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const challenge = Buffer.from(String(sealed.challenge));
  if (answer.length !== challenge.length || !timingSafeEqual(answer, challenge)) return null;
  return { value: sealed.session, expiresAt: new Date(sealed.sessionExpiresAt) };
}
