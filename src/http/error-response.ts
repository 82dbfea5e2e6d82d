import type { Response } from 'express';
import { BEARER_REALM } from '../access/credentials.js';
import type { AppError } from '../common/app-error.js';
import type { ErrorCode } from '../common/error-codes.js';
import { toAppError } from '../kernel/app-error-of.js';

export interface ErrorBody {
  error: { message: string; code: ErrorCode; data: Record<string, unknown> };
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    error: { message: error.message, code: error.code, data: { ...error.data, requestId } },
  };
}

export function sendError(res: Response, error: unknown, requestId: string): void {
  const appError = toAppError(error, requestId);
  if (res.headersSent) {
    res.end();
    return;
  }
  if (appError.code === 'RATE_LIMITED' && typeof appError.data.retryAfterSeconds === 'number') {
    res.setHeader('Retry-After', String(appError.data.retryAfterSeconds));
  }
  const challenge = authChallenge(appError);
  if (challenge) res.setHeader('WWW-Authenticate', challenge);
  if (appError.code === 'METHOD_NOT_SUPPORTED' && typeof appError.data.allow === 'string') {
    res.setHeader('Allow', appError.data.allow);
  }
  res.status(appError.status).json(errorBody(appError, requestId));
}

/**
 * Every 401 names the scheme to use (RFC 7235); a refused bearer token says so with RFC 6750's
 * `invalid_token`, while a request without credentials gets the bare challenge (RFC 6750 3.1).
 */
export function authChallenge(error: AppError): string | null {
  if (error.status !== 401) return null;
  const refusedToken = error.code.startsWith('TOKEN_');
  return `Bearer realm="${BEARER_REALM}"${refusedToken ? ', error="invalid_token"' : ''}`;
}
