/** A failure the CLI reports as `{"ok":false,"error":{code,message,data}}` with an exit code. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'CliError';
  }
}

const DENIED = new Set([
  'AUTH_REQUIRED',
  'TOKEN_INVALID',
  'TOKEN_REVOKED',
  'TOKEN_EXPIRED',
  'TOKEN_INVALIDATED',
  'SESSION_EXPIRED',
  'INVALID_CREDENTIALS',
  'MFA_REQUIRED',
  'FORBIDDEN',
  'NOT_LOGGED_IN',
]);

/** 0 ok, 1 error, 2 authentication or permission denied, 3 a plan that is not ready. */
export function exitCodeFor(code: string): number {
  if (code === 'PLAN_NOT_READY') return 3;
  return DENIED.has(code) ? 2 : 1;
}
