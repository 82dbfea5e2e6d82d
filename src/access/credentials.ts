import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';
import { AppError } from '../common/app-error.js';

export const TOKEN_PREFIX = 'slw_';
export const SESSION_COOKIE = 'slipway_session';

export type PresentedCredential =
  { kind: 'token'; value: string } | { kind: 'session'; value: string } | { kind: 'none' };

/**
 * What the caller presented. A bearer token wins over a cookie; an Authorization header that
 * is not a well-formed `Bearer slw_...` is an invalid token, never silently ignored.
 */
export function presentedCredential(req: Request): PresentedCredential {
  const header = req.header('authorization');
  if (header !== undefined) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (!match || !match[1].startsWith(TOKEN_PREFIX) || match[1].length > 256) {
      throw new AppError('TOKEN_INVALID', 'The bearer token is not a Slipway API token');
    }
    return { kind: 'token', value: match[1] };
  }
  const cookieHeader = req.header('cookie');
  if (cookieHeader && cookieHeader.length <= 8192) {
    const session = parseCookies(cookieHeader)[SESSION_COOKIE];
    if (session) return { kind: 'session', value: session };
  }
  return { kind: 'none' };
}
