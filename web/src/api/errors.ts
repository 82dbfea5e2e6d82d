import { SlipwayError } from '../../../client/src/index.js';

/** A refused or failed call: the typed client's error, by the dashboard's name for it. */
export { SlipwayError as ApiError, type FieldIssue } from '../../../client/src/index.js';

/** Credentials missing, unknown or expired: the browser needs to log in (again). */
const LOGGED_OUT_CODES = new Set([
  'AUTH_REQUIRED',
  'SESSION_EXPIRED',
  'TOKEN_INVALID',
  'TOKEN_REVOKED',
  'TOKEN_EXPIRED',
  'TOKEN_INVALIDATED',
]);

export function needsLogin(error: unknown): boolean {
  return error instanceof SlipwayError && error.status === 401 && LOGGED_OUT_CODES.has(error.code);
}

export function needsMfa(error: unknown): boolean {
  return error instanceof SlipwayError && error.code === 'MFA_REQUIRED';
}

/** A sentence for a person: what went wrong and, where it helps, what to do. */
export function describeError(error: unknown): string {
  if (!(error instanceof SlipwayError)) {
    return error instanceof Error ? error.message : 'Something went wrong.';
  }
  switch (error.code) {
    case 'RATE_LIMITED':
      return error.retryAfterSeconds !== null
        ? `Too many attempts. Try again in ${waitText(error.retryAfterSeconds)}.`
        : 'Too many attempts. Wait a moment and try again.';
    case 'FORBIDDEN':
      // A refusal by role or scope says so; one by a rule (`data.rule`: two humans, rank,
      // session only...) is said in the server's words alone.
      return typeof error.data.rule !== 'string' &&
        ('requiredScopes' in error.data || 'requiredRoles' in error.data)
        ? `${error.message}. Your role does not allow this; an owner or admin can change it.`
        : `${error.message.replace(/\.$/, '')}.`;
    case 'NETWORK':
      return error.message;
    default:
      return error.message.endsWith('.') ? error.message : `${error.message}.`;
  }
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
