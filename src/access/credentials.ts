import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';

export const TOKEN_PREFIX = 'slw_';
export const SESSION_COOKIE = 'slipway_session';
/** The realm of the `WWW-Authenticate: Bearer` challenge on 401 answers. */
export const BEARER_REALM = 'slipway';

export type PresentedCredential =
  { kind: 'token'; authorization: string } | { kind: 'session'; value: string } | { kind: 'none' };

/**
 * What the caller presented. An Authorization header wins over a cookie, whatever it holds: it
 * is parsed as a bearer token (BearerCredentials), and refused if malformed, never ignored.
 */
export function presentedCredential(req: Request): PresentedCredential {
  const authorization = req.header('authorization');
  if (authorization !== undefined) return { kind: 'token', authorization };
  const cookieHeader = req.header('cookie');
  if (cookieHeader && cookieHeader.length <= 8192) {
    const session = parseCookies(cookieHeader)[SESSION_COOKIE];
    if (session) return { kind: 'session', value: session };
  }
  return { kind: 'none' };
}
