/** The error catalogue of DESIGN.md, with the HTTP status each code answers with. */
export const ERROR_STATUS = {
  AUTH_REQUIRED: 401,
  TOKEN_INVALID: 401,
  TOKEN_REVOKED: 401,
  TOKEN_EXPIRED: 401,
  TOKEN_INVALIDATED: 401,
  SESSION_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  MFA_REQUIRED: 403,
  FORBIDDEN: 403,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Refusals for who the caller is or what they may do (credentials, MFA, permissions). */
export const DENIAL_CODES: readonly ErrorCode[] = [
  'AUTH_REQUIRED',
  'TOKEN_INVALID',
  'TOKEN_REVOKED',
  'TOKEN_EXPIRED',
  'TOKEN_INVALIDATED',
  'SESSION_EXPIRED',
  'INVALID_CREDENTIALS',
  'MFA_REQUIRED',
  'FORBIDDEN',
];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}
