import { randomBytes } from 'node:crypto';
import type { CookieOptions, Response } from 'express';
import { SESSION_COOKIE } from '../access/credentials.js';

/** A session cookie value: 256 random bits. Only its SHA-256 digest is ever recorded. */
export function newSessionValue(): string {
  return randomBytes(32).toString('base64url');
}

const BASE: CookieOptions = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' };

export function setSessionCookie(res: Response, value: string, expiresAt: Date): void {
  res.cookie(SESSION_COOKIE, value, { ...BASE, expires: expiresAt });
}

export function clearSessionCookie(res: Response): void {
  res.clearCookie(SESSION_COOKIE, BASE);
}
