import { parse as parseCookies } from 'cookie';
import type { CookieOptions, Request, Response } from 'express';
import type { SecretBox } from '../../secrets/secret-box.js';

export const SSO_COOKIE = 'slipway_sso';
const COOKIE_PATH = '/api/auth/sso';
/** How long a person has at the provider before the sign-in must start again. */
export const TRANSACTION_MS = 10 * 60_000;

/** The CLI's loopback listener, and the PKCE challenge it alone can answer. */
export interface CliHandoff {
  port: number;
  challenge: string;
}

/**
 * One sign-in in progress, kept by the browser that started it (sealed, so it can neither be
 * read nor forged, and any replica can finish the sign-in). Binding `state` to this browser is
 * what keeps someone else's callback from signing it in (login CSRF).
 */
export interface SsoTransaction {
  providerId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** A dashboard path to land on, already checked to be local. */
  returnTo: string;
  cli: CliHandoff | null;
  expiresAt: number;
}

const cookieOptions = (expires?: Date): CookieOptions => ({
  httpOnly: true,
  secure: true,
  sameSite: 'lax',
  path: COOKIE_PATH,
  ...(expires ? { expires } : {}),
});

export function keepTransaction(res: Response, box: SecretBox, tx: SsoTransaction): void {
  res.cookie(SSO_COOKIE, box.seal(JSON.stringify(tx)), cookieOptions(new Date(tx.expiresAt)));
}

export function dropTransaction(res: Response): void {
  res.clearCookie(SSO_COOKIE, cookieOptions());
}

/** The transaction this browser holds, or null when it holds none, a forged one or an old one. */
export function presentedTransaction(
  req: Request,
  box: SecretBox,
  now: number,
): SsoTransaction | null {
  const header = req.header('cookie');
  const sealed = header ? parseCookies(header)[SSO_COOKIE] : undefined;
  if (typeof sealed !== 'string' || sealed.length > 4096) return null;
  try {
    const tx = JSON.parse(box.open(sealed)) as SsoTransaction;
    return typeof tx.expiresAt === 'number' && tx.expiresAt > now ? tx : null;
  } catch {
    return null;
  }
}

/** A local dashboard path (`/x`, never `//host` or a scheme), else `/`. */
export function localPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 512) return '/';
  if (!/^\/(?![/\\])[\x21-\x7e]*$/.test(value)) return '/';
  return value;
}
