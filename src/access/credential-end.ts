import { DENIAL_CODES, type ErrorCode } from '../common/error-codes.js';

/**
 * Why a long-lived response (a stream, a wait) ended before its time: the credential it was
 * opened with no longer admits the caller. `code` is the refusal a new request would get.
 */
export interface CredentialEnd {
  reason: string;
  code: ErrorCode;
}

const REASONS: Partial<Record<ErrorCode, string>> = {
  TOKEN_REVOKED: 'credential revoked',
  TOKEN_EXPIRED: 'credential expired',
  TOKEN_INVALIDATED: 'credential invalidated',
  TOKEN_INVALID: 'credential unknown',
  SESSION_EXPIRED: 'session ended',
  MFA_REQUIRED: 'two-factor authentication required',
  FORBIDDEN: 'access withdrawn',
};

/** The end a refusal of the guard means; null for an error that says nothing of access. */
export function credentialEndOf(code: ErrorCode): CredentialEnd | null {
  if (!DENIAL_CODES.includes(code)) return null;
  return { reason: REASONS[code] ?? 'credential refused', code };
}

/** After this many checks in a row that could not be made, the response ends (fail closed). */
export const UNCHECKED_LIMIT = 3;

export const UNCHECKED_END: CredentialEnd = {
  reason: 'credential could not be checked',
  code: 'SERVICE_UNAVAILABLE',
};
